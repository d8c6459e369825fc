"""A submission cannot steer its verdict: hidden trees drawn per grading and telling one
coarse fact each, every tree in the report whatever the code did, values that survive JSON,
reports of bounded size, and ``perfect`` judged on verdicts."""

from __future__ import annotations

import dataclasses
import json
import time
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest

from reference.exercises import Exercise, load_catalog
from reference.exercises.model import ExerciseTree, Limits
from reference.hidden import DEVELOPMENT_KEY, LIBRARY_FOLDER
from reference.report import RunVerdict
from reference.reporting.cases import HIDDEN_REASONS, hidden_reasons
from reference.reporting.limits import LIMITS
from reference.search import Evaluate
from reference.tree import Edge, Kind, Node, Tree
from tests.worker.test_sandbox_notes import flooding, fraction_field
from worker.grading import grade
from worker.trees import cases

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
CATALOG = load_catalog(EXERCISES)
LIBRARY = EXERCISES / LIBRARY_FOLDER
ALPHABETA = CATALOG.get("aima-fig5.2-alphabeta")
MINIMAX = CATALOG.get("aima-fig5.2-minimax")
CORRECT_ALPHABETA = (LIBRARY / "alphabeta" / "correct_fail_soft.py").read_text(encoding="utf-8")


def graded(
    source: str, exercise: Exercise = ALPHABETA, draw: str = "submission-1"
) -> dict[str, Any]:
    report = grade(
        exercise, source, "submission.py", key=DEVELOPMENT_KEY, exercises_dir=EXERCISES, draw=draw
    ).to_json()
    # Whatever the code did, the report is strict JSON and names every tree once.
    json.dumps(report, allow_nan=False).encode("utf-8")
    names = [case.name for case in cases(exercise, DEVELOPMENT_KEY, EXERCISES, draw)]
    assert [case["name"] for case in report["cases"]] == names
    return report


def hidden(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [case for case in report["cases"] if case["hidden"]]


STEERED = """
import math

STEER = {steer}
SEEN = {{"depth": 0, "negative": False}}


def _leaf(game, state):
    value = game.utility(state, "MAX")
    SEEN["negative"] = SEEN["negative"] or value < 0
    return value


def _prunes():
    # The chosen mistake: stop pruning once the tree has shown a negative leaf.
    return not (STEER and SEEN["negative"])


def max_value(game, state, alpha, beta):
    SEEN["depth"] += 1
    try:
        if game.terminal_test(state):
            return _leaf(game, state)
        v = -math.inf
        for action in game.actions(state):
            v = max(v, min_value(game, game.result(state, action), alpha, beta))
            if v >= beta and _prunes():
                return v
            alpha = max(alpha, v)
        return v + {root_error} if SEEN["depth"] == 1 else v
    finally:
        SEEN["depth"] -= 1


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return _leaf(game, state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        if v <= alpha and _prunes():
            return v
        beta = min(beta, v)
    return v
"""


def test_several_chosen_mistakes_tell_no_more_than_one() -> None:
    # Both searches return a wrong root value; the second also stops pruning on the trees
    # that have a negative leaf. Were each kind of mistake a phrase of the reason, the
    # reasons would tell, tree by tree, whether it has a negative leaf.
    plain = graded(STEERED.format(steer=False, root_error=100))
    steered = graded(STEERED.format(steer=True, root_error=100))
    assert [case["verdict"] for case in hidden(plain)] == ["failed"] * 8
    assert [case["message"] for case in hidden(steered)] == [
        case["message"] for case in hidden(plain)
    ]
    assert {case["message"] for case in hidden(plain)} == {HIDDEN_REASONS[0]}


def test_a_hidden_tree_gives_one_reason_of_a_fixed_few() -> None:
    steered = graded(STEERED.format(steer=True, root_error=0))
    reasons = {case["message"] for case in hidden(steered) if case["verdict"] == "failed"}
    assert reasons and reasons <= set(HIDDEN_REASONS)
    for case in hidden(steered):
        assert set(case) <= {"name", "hidden", "verdict", "message"}


def test_the_score_does_not_tell_a_hidden_trees_size() -> None:
    # One wrong node (the root) against every MAX node wrong: were hidden trees scored per
    # node, each one's points would tell its size; scored by its reason, a failed hidden
    # tree with a wrong root value earns nothing, and the score is half the public tree's.
    wrapper = CORRECT_ALPHABETA + (
        "\n\n_search = max_value\nDEPTH = [0]\n\n"
        "def max_value(game, state, alpha, beta):\n"
        "    DEPTH[0] += 1\n"
        "    try:\n"
        "        v = _search(game, state, alpha, beta)\n"
        "    finally:\n"
        "        DEPTH[0] -= 1\n"
        "    return v + 50 if WRONG else v\n"
    )
    for source in (wrapper.replace("WRONG", "DEPTH[0] == 0"), wrapper.replace("WRONG", "True")):
        report = graded(source)
        assert [case["verdict"] for case in report["cases"]] == ["failed"] * 9
        public = report["cases"][0]["score"]
        assert 0 < public < 100
        assert {case["message"] for case in hidden(report)} == {HIDDEN_REASONS[0]}
        half = (Decimal(str(public)) / 2).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        assert report["score"] == float(half)


def replayer(exercise: Exercise, draw: str) -> str:
    """A "search" that knows the trees of one draw by the leaves a search evaluates on
    them, and answers right only on those: what a student could build had one grading
    shown its hidden trees."""
    known = [
        tuple(
            event.value
            for event in case.reference_of(exercise).trace
            if isinstance(event, Evaluate)
        )
        for case in cases(exercise, DEVELOPMENT_KEY, EXERCISES, draw)
    ]
    # Both entry points are wrapped: a hidden tree may have MAX or MIN at its root.
    return CORRECT_ALPHABETA + (
        f"\n\nKNOWN = {set(known)!r}\nLEAVES = []\nDEPTH = [0]\n\n"
        "class _Recorder:\n"
        "    def __init__(self, game):\n"
        "        self._game = game\n\n"
        "    def __getattr__(self, name):\n"
        "        return getattr(self._game, name)\n\n"
        "    def utility(self, state, player):\n"
        "        LEAVES.append(self._game.utility(state, player))\n"
        "        return LEAVES[-1]\n\n"
        "def _replaying(search):\n"
        "    def replayed(game, state, alpha, beta):\n"
        "        DEPTH[0] += 1\n"
        "        try:\n"
        "            v = search(_Recorder(game) if DEPTH[0] == 1 else game, state, alpha, beta)\n"
        "        finally:\n"
        "            DEPTH[0] -= 1\n"
        "        if DEPTH[0] == 0 and tuple(LEAVES) not in KNOWN:\n"
        "            return v + 1\n"
        "        return v\n"
        "    return replayed\n\n"
        "max_value = _replaying(max_value)\n"
        "min_value = _replaying(min_value)\n"
    )


def test_a_replayer_of_one_gradings_hidden_trees_fails_the_next_grading() -> None:
    source = replayer(ALPHABETA, "submission-1")
    first = graded(source, draw="submission-1")
    assert first["verdict"] == "passed", first["message"]
    again = graded(source, draw="submission-1")
    assert again["verdict"] == "passed"  # a regrade draws the same trees
    second = graded(source, draw="submission-2")
    failed = [case for case in hidden(second) if case["verdict"] == "failed"]
    assert len(failed) >= 4, second["message"]


def test_the_same_draw_is_graded_the_same_and_another_draw_differently() -> None:
    first = cases(ALPHABETA, DEVELOPMENT_KEY, EXERCISES, "submission-1")
    again = cases(ALPHABETA, DEVELOPMENT_KEY, EXERCISES, "submission-1")
    other = cases(ALPHABETA, DEVELOPMENT_KEY, EXERCISES, "submission-2")
    assert [case.tree for case in first] == [case.tree for case in again]
    assert [case.tree for case in first[1:]] != [case.tree for case in other[1:]]


# -- values that survive JSON -------------------------------------------------------------


@pytest.mark.parametrize("returned", ["inf", "-inf", "nan"])
def test_a_non_finite_root_value_is_a_word_in_the_report(returned: str) -> None:
    # The root's MAX-VALUE returns float(returned) after a correct search.
    source = (LIBRARY / "minimax" / "correct_plain.py").read_text(encoding="utf-8") + (
        "\n\n_search = max_value\nDEPTH = [0]\n\n"
        "def max_value(game, state):\n"
        "    DEPTH[0] += 1\n"
        "    try:\n"
        "        v = _search(game, state)\n"
        "    finally:\n"
        "        DEPTH[0] -= 1\n"
        f"    return float({returned!r}) if DEPTH[0] == 0 else v\n"
    )
    report = graded(source, MINIMAX)
    case = report["cases"][0]
    assert case["verdict"] == "failed"
    assert case["value"] == {"expected": 3, "actual": returned}
    root = next(node for node in case["nodes"] if node["node"] == "A")
    assert root["verdict"] == "wrong_value"
    assert [node["node"] for node in case["nodes"] if node["verdict"] != "ok"] == ["A"]


def test_nul_and_lone_surrogates_in_errors_and_output_are_shown_escaped() -> None:
    source = (
        "def max_value(game, state):\n"
        "    print('out\\x00put \\ud800 \\x1b[2K')\n"
        "    raise ValueError('bad\\x00value \\udcff')\n\n"
        "def min_value(game, state):\n    return 0\n"
    )
    report = graded(source, MINIMAX)
    assert report["verdict"] == "runtime_error"
    text = json.dumps(report, ensure_ascii=False)
    text.encode("utf-8")
    assert "\\u0000" not in text and "\x00" not in text
    assert "\\\\x00" in text  # shown as the four characters \x00


# -- every tree in the report, whatever happens -------------------------------------------


def on_hidden_trees(action: str) -> str:
    """A correct alpha-beta that does ``action`` once per hidden tree, at the first leaf
    where the leaves it read stop being Figure 5.2's (values over 9 are never drawn)."""
    return CORRECT_ALPHABETA + (
        "\n\nimport time\n_search = max_value\n"
        "PUBLIC = [3, 12, 8, 2, 14, 5, 2]\nREAD = []\nDONE = []\n\n"
        "class _Watch:\n"
        "    def __init__(self, game):\n"
        "        self._game = game\n\n"
        "    def __getattr__(self, name):\n"
        "        return getattr(self._game, name)\n\n"
        "    def utility(self, state, player):\n"
        "        game = self._game\n"
        "        READ.append(game.utility(state, player))\n"
        "        if not DONE and READ != PUBLIC[: len(READ)]:\n"
        "            DONE.append(True)\n"
        f"            {action}\n"
        "        return READ[-1]\n\n"
        "def max_value(game, state, alpha, beta):\n"
        "    watched = game if isinstance(game, _Watch) else _Watch(game)\n"
        "    return _search(watched, state, alpha, beta)\n"
    )


def test_a_compile_error_comes_from_the_grader_and_every_tree_is_not_run() -> None:
    report = graded("def max_value(game, state)\n    return 1\n", MINIMAX)
    assert report["verdict"] == "compile_error"
    assert "line 1" in report["message"]
    assert {case["verdict"] for case in report["cases"]} == {RunVerdict.NOT_RUN}
    assert report["score"] == 0


def test_a_loop_holds_the_sandbox_for_one_trees_limit_not_one_per_tree() -> None:
    exercise = dataclasses.replace(ALPHABETA, limits=Limits(cpu_seconds=0.5, wall_seconds=1))
    started = time.monotonic()
    report = graded(
        on_hidden_trees("while True:\n                pass"),
        exercise,
    )
    assert time.monotonic() - started < 3
    verdicts = [case["verdict"] for case in report["cases"]]
    assert verdicts[:2] == ["passed", "time_limit"]
    assert verdicts[2:] == [RunVerdict.NOT_RUN] * 7
    assert report["verdict"] == "time_limit"
    assert "on a hidden tree" in report["cases"][2]["message"]
    assert report["score"] == 50  # the public tree's 100 and nothing of the hidden half


def test_a_sleep_is_stopped_by_the_submissions_time_budget() -> None:
    limits = Limits(cpu_seconds=1, wall_seconds=2, submission_wall_seconds=1.5)
    exercise = dataclasses.replace(ALPHABETA, limits=limits)
    report = graded(
        on_hidden_trees("time.sleep(0.5)"),
        exercise,
    )
    # Each sleep is within a tree's 2 s wall limit: only the submission's 1.5 s budget can
    # have stopped them (checked by the verdicts, not by this machine's clock).
    verdicts = [case["verdict"] for case in report["cases"]]
    assert verdicts[0] == "passed"
    assert RunVerdict.NOT_RUN in verdicts
    assert verdicts.count(RunVerdict.NOT_RUN) + verdicts.count("time_limit") >= 5


# -- big trees: perfect on verdicts, reports under the cap -------------------------------


def wide_tree(mins: int = 200, leaves: int = 99) -> Tree:
    """MAX over ``mins`` MIN nodes over ``leaves`` leaves each: more than 20,000 nodes."""
    nodes = [Node("A", Kind.MAX, tuple(Edge(f"a{i}", f"B{i}") for i in range(1, mins + 1)))]
    for i in range(1, mins + 1):
        edges = tuple(Edge(f"b{i}.{j}", f"B{i}.{j}") for j in range(1, leaves + 1))
        nodes.append(Node(f"B{i}", Kind.MIN, edges))
        nodes += [Node(f"B{i}.{j}", Kind.LEAF, utility=j % 7) for j in range(1, leaves + 1)]
    return Tree("A", nodes)


@pytest.mark.slow
def test_one_wrong_leaf_of_a_20000_node_tree_fails_and_the_report_stays_under_the_cap() -> None:
    tree = wide_tree()
    entry = ExerciseTree("wide", tree, "generated")
    exercise = dataclasses.replace(
        MINIMAX,
        slug="wide-minimax",
        trees=(entry,),
        hidden=dataclasses.replace(MINIMAX.hidden, count=0),
        limits=Limits(cpu_seconds=20, wall_seconds=40),
    )
    minimax = (LIBRARY / "minimax" / "correct_plain.py").read_text(encoding="utf-8")
    right = graded(minimax, exercise)
    assert right["verdict"] == "passed"
    # The 703rd leaf (B8.10, worth 3 under a MIN of 0) returned one too high: one wrong
    # node of 20,001, and its parent's value is still right.
    wrong = minimax.replace(
        "def max_value(game, state):\n",
        "LEAVES = [0]\n\n\ndef max_value(game, state):\n"
        "    if game.terminal_test(state):\n"
        "        LEAVES[0] += 1\n"
        '        return game.utility(state, "MAX") + (LEAVES[0] == 703)\n',
    )
    assert wrong != minimax
    report = graded(wrong, exercise)
    case = report["cases"][0]
    assert case["verdict"] == "failed"
    assert report["verdict"] == "failed"
    assert [node["node"] for node in case["nodes"] if node["verdict"] != "ok"] == ["B8.10"]
    assert len(json.dumps(report).encode()) <= LIMITS.total_bytes


def test_a_report_bloating_search_is_stopped_and_its_report_stays_small() -> None:
    # A correct search that also notes 2,000 calls of its root with fractions of 4,000
    # digits: once a 34 MB report that passed; now the grader refuses such values.
    field = fraction_field(4000, "x")
    report = graded(flooding((field, field, b""), 2000, 50, 1000))
    assert report["verdict"] == "protocol_violation"
    assert report["cases"][0]["verdict"] == "protocol_violation"
    assert {case["verdict"] for case in report["cases"][1:]} == {RunVerdict.NOT_RUN}
    assert len(json.dumps(report)) < 20_000


def test_a_hidden_trees_reason_speaks_of_the_exercises_own_search() -> None:
    minimax = hidden_reasons(MINIMAX)
    depth_limited = hidden_reasons(CATALOG.get("tictactoe-depth2-heuristic"))
    assert hidden_reasons(ALPHABETA) == HIDDEN_REASONS
    for reasons in (minimax, depth_limited):
        assert len(reasons) == len(HIDDEN_REASONS)
        assert not any("pruning" in reason or "alpha-beta" in reason for reason in reasons)
    assert "depth limit" in depth_limited[1]
