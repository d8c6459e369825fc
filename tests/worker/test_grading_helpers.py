"""Decision-function searches graded through the real sandbox (``worker.grading.grade``):
the values their own helpers return are judged node by node for every algorithm family, on
the shipped exercises' hidden trees too, and in a CS188 agent; the child's notes of them
are checked as any note is."""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path
from typing import Any

import pytest

from reference.algorithms import ALGORITHMS
from reference.contracts import ContractChoice
from reference.exercises import Exercise, load_catalog
from reference.exercises.model import ExerciseTree
from reference.hidden import DEVELOPMENT_KEY
from reference.observed import Return
from reference.treefile import parse_compact
from tests.worker.helper_sources import DICE, FAMILIES, FIG52, Family
from tests.worker.test_observer import PARENTS_HELPER, SETTRACE
from tests.worker.test_sandbox_support import QUICK, server
from worker.grading import grade
from worker.harness.local import entry_spec, run_local
from worker.sandbox import SandboxOptions, SandboxVerdict, run_sandboxed

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
CATALOG = load_catalog(EXERCISES)
AGENTS = Path(__file__).parent / "data" / "cs188_agents"
GOOD = {"ok", "pruned"}


def exercise_of(family: Family, text: str | None = None) -> Exercise:
    """The family's exercise with one public tree (its own) and no hidden trees."""
    base = CATALOG.get(family.slug)
    options = dataclasses.replace(base.options, depth_limit=family.depth_limit)
    tree = parse_compact(text or family.tree)
    return dataclasses.replace(
        base,
        options=options,
        trees=(ExerciseTree("t", tree, "test"),),
        hidden=dataclasses.replace(base.hidden, count=0),
    )


def graded(exercise: Exercise, source: str, *, public_only: bool = True) -> dict[str, Any]:
    return grade(
        exercise,
        textwrap.dedent(source),
        "search.py",
        key=DEVELOPMENT_KEY,
        exercises_dir=EXERCISES,
        draw="helper-values",
        public_only=public_only,
    ).to_json()


def verdicts(case: dict[str, Any]) -> dict[str, str]:
    return {node["node"]: node["verdict"] for node in case["nodes"]}


@pytest.mark.parametrize("family", FAMILIES, ids=lambda family: family.algorithm)
def test_a_correct_decision_function_passes_with_a_verdict_at_every_node(family: Family) -> None:
    report = graded(exercise_of(family), family.correct)
    assert report["verdict"] == "passed", report["message"]
    assert report["score"] == report["max_score"]
    found = verdicts(report["cases"][0])
    assert found.pop("A") in ("not_observed", "ok")
    assert set(found.values()) <= GOOD and "ok" in found.values(), found


@pytest.mark.parametrize("family", FAMILIES, ids=lambda family: family.algorithm)
def test_a_wrong_value_inside_a_decision_function_fails_at_its_node(family: Family) -> None:
    report = graded(exercise_of(family), family.wrong)
    assert report["verdict"] == "failed"
    case = report["cases"][0]
    wrong = {name for name, verdict in verdicts(case).items() if verdict == "wrong_value"}
    assert wrong == family.wrong_nodes, verdicts(case)
    # Its move is right: before its helpers' values were seen, it passed.
    assert case["decision"]["actual"] == case["decision"]["expected"]
    assert case["first_divergence"]["node"] == "B"
    assert case["first_divergence"]["message"].startswith("B returned ")


@pytest.mark.parametrize("family", FAMILIES, ids=lambda family: family.algorithm)
def test_a_correct_decision_function_passes_the_exercises_hidden_trees(family: Family) -> None:
    # Hidden trees start with MIN to move as often as with MAX: aima-python's helpers then
    # score states for MIN (utility(state, player)), and are read in MIN's view.
    exercise = CATALOG.get(family.slug)
    report = graded(exercise, family.correct, public_only=False)
    assert report["verdict"] == "passed", report["message"]
    public = [case for case in report["cases"] if not case["hidden"]]
    assert all("ok" in verdicts(case).values() for case in public)


def sandboxed_and_local(text: str, source: str, algorithm: str = "minimax") -> tuple[Any, Any]:
    tree = parse_compact(text)
    spec = entry_spec(algorithm, ALGORITHMS[algorithm].entry_points, tree)
    source = textwrap.dedent(source)
    options = SandboxOptions(forkserver=server())
    sandboxed = run_sandboxed(tree, source, "search.py", spec, QUICK, options=options)
    return sandboxed.observed, run_local(tree, source, spec, "search.py").observed


@pytest.mark.parametrize("family", FAMILIES[:2], ids=lambda family: family.algorithm)
def test_the_sandbox_records_what_the_harness_records_in_process(family: Family) -> None:
    sandboxed, local = sandboxed_and_local(family.tree, family.correct, family.algorithm)
    assert any(isinstance(event, Return) for event in sandboxed.events)
    assert sandboxed.events == local.events


def test_questions_answered_in_the_child_count_where_the_trusted_side_counts_them() -> None:
    # The child answers terminal_test of a state whose facts it was told, and counts it as
    # the trusted side does: tag(leaf), called right after, asked nothing during its call.
    sandboxed, local = sandboxed_and_local(FIG52, PARENTS_HELPER)
    returned = {event.node for event in sandboxed.events if isinstance(event, Return)}
    assert returned == {"B", "C", "D"}
    assert sandboxed.events == local.events


def test_a_search_that_stops_the_trace_function_passes_with_what_was_seen() -> None:
    family = FAMILIES[0]
    report = graded(exercise_of(family), SETTRACE.format(after_the_first="sys.settrace(None)"))
    assert report["verdict"] == "passed", report["message"]
    found = verdicts(report["cases"][0])
    assert found["B"] == "ok" and found["C"] == "not_observed"


ONCE_UNTRACED = """
    import sys

    def minmax_decision(state, game):
        if not hasattr(sys, "untraced_once"):  # the first tree this process searches
            sys.untraced_once = True
            sys.settrace(None)

        def min_value(state):
            if game.terminal_test(state):
                return game.utility(state, "MAX")
            return min(min_value(game.result(state, a)) for a in game.actions(state))

        return max(game.actions(state), key=lambda a: min_value(game.result(state, a)))
"""


def test_the_next_tree_of_the_same_process_is_observed_again() -> None:
    base = CATALOG.get("aima-fig5.2-minimax")
    trees = tuple(ExerciseTree(name, parse_compact(FIG52), "test") for name in ("t1", "t2"))
    exercise = dataclasses.replace(
        base, trees=trees, hidden=dataclasses.replace(base.hidden, count=0)
    )
    report = graded(exercise, ONCE_UNTRACED)
    assert report["verdict"] == "passed", report["message"]
    first, second = (verdicts(case) for case in report["cases"])
    assert first["B"] == "not_observed" and second["B"] == "ok"


def cs188_exercise(agent_class: str, slug: str, algorithm: str, text: str) -> Exercise:
    base = CATALOG.get(slug)
    options = dataclasses.replace(base.options, generation="generated", order_judged=False)
    return dataclasses.replace(
        base,
        algorithm=algorithm,
        options=options,
        contract=ContractChoice("cs188", agent_class, 2, 1),
        trees=(ExerciseTree("t", parse_compact(text), "test"),),
        hidden=dataclasses.replace(base.hidden, count=0),
    )


def agent(name: str) -> str:
    return (AGENTS / "_base.py").read_text() + "\n" + (AGENTS / f"{name}.py").read_text()


def test_a_cs188_expectimax_that_divides_by_one_more_fails_at_its_chance_nodes() -> None:
    exercise = cs188_exercise("ExpectimaxAgent", "expectimax-dice", "expectimax", DICE)
    right = graded(exercise, agent("correct_expectimax"))
    assert right["verdict"] == "passed", right["message"]
    assert verdicts(right["cases"][0])["B"] == "ok"
    wrong = graded(exercise, agent("wrong_expectimax_divides_by_n_plus_1"))
    assert wrong["verdict"] == "failed"
    case = wrong["cases"][0]
    assert {name for name, verdict in verdicts(case).items() if verdict not in GOOD} == {
        "A",  # getAction scores the root's moves itself: no value of it is seen
        "B",
        "C",
    }
    assert verdicts(case)["A"] == "not_observed" and verdicts(case)["B"] == "wrong_value"


def test_a_cs188_alphabeta_agent_is_judged_at_its_root_too() -> None:
    exercise = cs188_exercise("AlphaBetaAgent", "aima-fig5.2-alphabeta", "alphabeta", FIG52)
    report = graded(exercise, agent("correct_alphabeta"))
    assert report["verdict"] == "passed", report["message"]
    # getAction returns maxValue(root)[1]: the root's value is maxValue's.
    assert verdicts(report["cases"][0])["A"] == "ok"
    assert report["cases"][0]["value"]["actual"] == 3


FORGED = """
    import os

    def minmax_decision(state, game):
        game.actions(state)
        note = b"H" + {name} + b"\\t" + {token} + b"\\t0\\ti99\\t" + {flag} + b"\\n"
        body = note + b"?a" + state._token.encode()
        os.write(4, len(body).to_bytes(4, "little") + body)
        os.read(3, 65536)
        return "a1"
"""


def forged(name: bytes, token: str, flag: bytes) -> tuple[SandboxVerdict, list[Return]]:
    """How a run that sends a helper's note of its own ends, and the returns recorded."""
    tree = parse_compact(FIG52)
    source = textwrap.dedent(FORGED.format(name=repr(name), token=token, flag=repr(flag)))
    spec = entry_spec("minimax", ("max_value", "min_value"), tree)
    options = SandboxOptions(forkserver=server())
    record = run_sandboxed(tree, source, "search.py", spec, QUICK, options=options)
    returns = [event for event in record.observed.events if isinstance(event, Return)]
    return record.outcome.verdict, returns


def test_a_forged_helper_note_is_ignored_or_a_violation() -> None:
    # About a state that is not the game's, or one the game was never asked about: nothing.
    assert forged(b"f", repr(b"0" * 16), b"1") == (SandboxVerdict.COMPLETED, [])
    child = "game.result(state, 'a1')._token.encode()"
    assert forged(b"f", child, b"1") == (SandboxVerdict.COMPLETED, [])
    # About the root, asked about: the claim is read by the same rules as the harness's.
    assert forged(b"f", "state._token.encode()", b"1") == (
        SandboxVerdict.COMPLETED,
        [Return("A", "f", 99, None, "99")],
    )
    # Malformed: a flag that is neither empty nor 1, a name too long or not ASCII.
    for name, flag in ((b"f", b"2"), (b"x" * 65, b"1"), (b"\xe9", b"1")):
        verdict, _ = forged(name, "state._token.encode()", flag)
        assert verdict is SandboxVerdict.PROTOCOL_VIOLATION, (name, flag)
