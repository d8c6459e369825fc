"""Correct code as students really write it passes, graded through the sandbox: a module the
standard library can find, entry points that are any callables, the window before the
depth, the textbook's decision functions of both editions; a missing entry point is named."""

from __future__ import annotations

import dataclasses
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from reference.exercises import Exercise, load_catalog
from reference.exercises.model import ExerciseTree
from reference.hidden import DEVELOPMENT_KEY
from reference.hidden.trusted import best_actions
from reference.tree import Kind, Tree
from reference.treefile import parse_compact
from worker.grading import grade
from worker.sandbox.importable import preload_for
from worker.trees import cases

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
CATALOG = load_catalog(EXERCISES)
MINIMAX = CATALOG.get("aima-fig5.2-minimax")
ALPHABETA = CATALOG.get("aima-fig5.2-alphabeta")


def graded(source: str, exercise: Exercise, filename: str = "search.py") -> dict[str, Any]:
    return grade(
        exercise,
        textwrap.dedent(source),
        filename,
        key=DEVELOPMENT_KEY,
        exercises_dir=EXERCISES,
        draw="student-modules",
    ).to_json()


def assert_passes(report: dict[str, Any]) -> None:
    assert report["verdict"] == "passed", (report["message"], report["cases"][0])
    assert report["score"] == report["max_score"]


DATACLASS = """
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Best:
    value: float
    action: str | None = None


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    best = Best(-math.inf)
    for action in game.actions(state):
        best = max(best, Best(min_value(game, game.result(state, action)), action),
                   key=lambda b: b.value)
    return best.value


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return min(max_value(game, game.result(state, a)) for a in game.actions(state))
"""


def test_a_dataclass_under_postponed_annotations_works() -> None:
    assert_passes(graded(DATACLASS, MINIMAX))


def test_the_module_is_found_under_its_name_while_it_runs() -> None:
    source = DATACLASS + textwrap.dedent(
        """
        import sys
        import typing

        assert sys.modules[__name__].Best is Best
        assert typing.get_type_hints(Best)["value"] is float
        assert __name__ == "search"
        """
    )
    assert_passes(graded(source, MINIMAX))


def test_a_file_named_like_a_standard_module_does_not_replace_it() -> None:
    source = DATACLASS + "\nimport random\n\nassert random.choice([1]) == 1\n"
    assert_passes(graded(source, MINIMAX, filename="random.py"))


LRU_CACHED = """
import functools
import math


@functools.lru_cache(maxsize=None)
def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return max(min_value(game, game.result(state, a)) for a in game.actions(state))


@functools.lru_cache(maxsize=None)
def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return min(max_value(game, game.result(state, a)) for a in game.actions(state))
"""

BOUND_METHODS = """
import math


class Agent:
    def __init__(self):
        self.calls = 0

    def max_value(self, game, state):
        self.calls += 1
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        return max(self.min_value(game, game.result(state, a)) for a in game.actions(state))

    def min_value(self, game, state):
        self.calls += 1
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        return min(self.max_value(game, game.result(state, a)) for a in game.actions(state))


agent = Agent()
max_value = agent.max_value
min_value = agent.min_value
"""

CALLABLE_OBJECTS = """
class Value:
    def __init__(self, pick, other):
        self.pick, self.other = pick, other

    def __call__(self, game, state):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        search = globals()[self.other]
        return self.pick(search(game, game.result(state, a)) for a in game.actions(state))


max_value = Value(max, "min_value")
min_value = Value(min, "max_value")
"""


@pytest.mark.parametrize(
    "source",
    [LRU_CACHED, BOUND_METHODS, CALLABLE_OBJECTS],
    ids=["lru_cache", "bound methods", "callable objects"],
)
def test_entry_points_may_be_any_callables(source: str) -> None:
    report = graded(source, MINIMAX)
    assert_passes(report)
    # Every node's call was noted: none is merely "not observed".
    verdicts = {node["verdict"] for node in report["cases"][0]["nodes"]}
    assert verdicts == {"ok"}


def test_a_missing_entry_point_is_named_with_what_the_file_defines() -> None:
    source = "import functools\nfrom math import inf\n\n@functools.lru_cache\n"
    source += "def max_value(game, state):\n    return inf\n\ndef helper():\n    pass\n"
    report = graded(source, MINIMAX)
    assert report["verdict"] == "runtime_error"
    message = report["message"]
    assert message.startswith("missing entry point min_value() (or the textbook's ")
    assert message.endswith("your file defines helper(), max_value()")
    assert "lru_cache" not in message and "inf" not in message.split("defines")[1]


DEPTH_LIMITED_ALPHABETA = """
import math


def max_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
"""


def test_depth_limited_alphabeta_reads_the_depth_after_the_window() -> None:
    # Alpha is 3 (an int) once B returns: it was read as the depth.
    options = dataclasses.replace(ALPHABETA.options, depth_limit=2)
    exercise = dataclasses.replace(ALPHABETA, options=options)
    report = graded(DEPTH_LIMITED_ALPHABETA, exercise)
    assert_passes(report)


FOURTH_EDITION = """
import math


def minimax_search(game, state):
    player = game.to_move(state)

    def max_value(state):
        if game.terminal_test(state):
            return game.utility(state, player), None
        v, move = -math.inf, None
        for a in game.actions(state):
            v2, _ = min_value(game.result(state, a))
            if v2 > v:
                v, move = v2, a
        return v, move

    def min_value(state):
        if game.terminal_test(state):
            return game.utility(state, player), None
        v, move = math.inf, None
        for a in game.actions(state):
            v2, _ = max_value(game.result(state, a))
            if v2 < v:
                v, move = v2, a
        return v, move

    return max_value(state)
"""


def test_the_fourth_editions_search_returning_value_and_move_is_graded() -> None:
    report = graded(FOURTH_EDITION, MINIMAX)
    assert_passes(report)
    assert report["cases"][0]["decision"]["actual"] == "a1"


STOCHASTIC_GAME = """
import math


def value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return max_value(game, state) if game.to_move(state) == "MAX" else exp_value(game, state)


def max_value(game, state):
    return max(value(game, game.result(state, a)) for a in game.actions(state))


def exp_value(game, state):
    total = 0
    for chance in game.chances(state):
        total += game.probability(chance) * value(game, game.outcome(state, chance))
    return total
"""


def test_aima_pythons_stochastic_game_names_are_answered() -> None:
    assert_passes(graded(STOCHASTIC_GAME, CATALOG.get("expectimax-dice")))


def test_a_refused_import_lists_what_may_be_imported() -> None:
    report = graded(DATACLASS + "\nimport pandas as pd\n", MINIMAX)
    assert report["verdict"] == "runtime_error"
    assert "No module named 'pandas' can be imported here; these can: " in report["message"]
    assert all(name in report["message"] for name in ("dataclasses", "math", "numpy"))


AIMA_STYLE = """
import numpy as np


def minmax_decision(state, game):
    player = game.to_move(state)

    def max_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = -np.inf
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a)))
        return v

    def min_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = np.inf
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a)))
        return v

    return max(game.actions(state), key=lambda a: min_value(game.result(state, a)))
"""


def test_aima_pythons_numpy_import_works_in_the_sandbox() -> None:
    report = graded(AIMA_STYLE, MINIMAX)
    assert_passes(report)
    assert report["cases"][0]["decision"]["actual"] == "a1"


def test_only_a_file_that_imports_numpy_gets_a_fork_server_that_loads_it() -> None:
    assert "numpy" not in preload_for(DATACLASS)
    assert "numpy" not in preload_for(DATACLASS + "\n# numpy would help here\n")
    assert preload_for(AIMA_STYLE)[-1] == "numpy"
    assert preload_for("from numpy import inf\n")[-1] == "numpy"


AIMA_CUTOFF = """
import numpy as np


def alpha_beta_cutoff_search(state, game, d=4, cutoff_test=None, eval_fn=None):
    player = game.to_move(state)

    def max_value(state, alpha, beta, depth):
        if cutoff_test(state, depth):
            return eval_fn(state)
        v = -np.inf
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a), alpha, beta, depth + 1))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta, depth):
        if cutoff_test(state, depth):
            return eval_fn(state)
        v = np.inf
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a), alpha, beta, depth + 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    cutoff_test = cutoff_test or (lambda state, depth: depth > d or game.terminal_test(state))
    eval_fn = eval_fn or (lambda state: game.utility(state, player))
    best_score = -np.inf
    beta = np.inf
    best_action = None
    for a in game.actions(state):
        v = min_value(game.result(state, a), best_score, beta, 1)
        if v > best_score:
            best_score = v
            best_action = a
    return best_action
"""


def test_aima_pythons_cutoff_search_gets_the_depth_limit_and_the_evaluation() -> None:
    options = dataclasses.replace(ALPHABETA.options, depth_limit=2)
    report = graded(AIMA_CUTOFF, dataclasses.replace(ALPHABETA, options=options))
    assert_passes(report)
    assert report["cases"][0]["decision"]["actual"] == "a1"


FOURTH_EDITION_ALPHABETA = """
import math


def alphabeta_search(game, state):
    player = game.to_move(state)

    def max_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, player), None
        v, move = -math.inf, None
        for a in game.actions(state):
            v2, _ = min_value(game.result(state, a), alpha, beta)
            if v2 > v:
                v, move = v2, a
                alpha = max(alpha, v)
            if v >= beta:
                return v, move
        return v, move

    def min_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, player), None
        v, move = math.inf, None
        for a in game.actions(state):
            v2, _ = max_value(game.result(state, a), alpha, beta)
            if v2 < v:
                v, move = v2, a
                beta = min(beta, v)
            if v <= alpha:
                return v, move
        return v, move

    return max_value(state, -math.inf, math.inf)
"""


def test_the_fourth_editions_alphabeta_search_is_graded() -> None:
    report = graded(FOURTH_EDITION_ALPHABETA, ALPHABETA)
    assert_passes(report)
    verdicts = {node["node"]: node["verdict"] for node in report["cases"][0]["nodes"]}
    assert verdicts["C2"] == verdicts["C3"] == "pruned"


AIMA_EXPECT_MINMAX = """
import numpy as np


def expect_minmax(state, game):
    player = game.to_move(state)

    def max_value(state):
        v = -np.inf
        for a in game.actions(state):
            v = max(v, chance_node(state, a))
        return v

    def min_value(state):
        v = np.inf
        for a in game.actions(state):
            v = min(v, chance_node(state, a))
        return v

    def chance_node(state, action):
        res_state = game.result(state, action)
        if game.terminal_test(res_state):
            return game.utility(res_state, player)
        sum_chances = 0
        num_chances = len(game.chances(res_state))
        for chance in game.chances(res_state):
            res_state = game.outcome(res_state, chance)
            util = 0
            if res_state.to_move == player:
                util = max_value(res_state)
            elif res_state.to_move != player:
                util = min_value(res_state)
            sum_chances += util * game.probability(chance)
        return sum_chances / num_chances

    return max(game.actions(state), key=lambda a: chance_node(state, a), default=None)
"""


def published_search(tree: Tree) -> tuple[str, bool]:
    """The move aima-python's expect_minmax makes, and whether the values its max_value and
    min_value return (for the MAX and MIN states below the root) are the true ones: it
    divides a chance node's weighted sum by its number of outcomes, which changes the
    values below a chance node of more than one outcome, and the move when the counts
    differ."""

    def value(name: str, divided: bool) -> Fraction:
        node = tree[name]
        if node.is_leaf:
            return Fraction(node.utility or 0)
        values = [value(edge.child, divided) for edge in node.edges]
        if node.kind is Kind.MAX:
            return max(values)
        if node.kind is Kind.MIN:
            return min(values)
        weights = [Fraction(edge.probability or 0) for edge in node.edges]
        weighted = sum(p * v for p, v in zip(weights, values, strict=True))
        return weighted / len(values) if divided else weighted

    edges = tree.root.edges
    # It takes the best move for the player to move: at a MIN root, the smallest value; its
    # values are for that player.
    best = min if tree.root.kind is Kind.MIN else max
    move = best(edges, key=lambda edge: value(edge.child, True)).action
    searched = [
        node.name
        for node in tree
        if node.kind in (Kind.MAX, Kind.MIN) and node.name != tree.root.name
    ]
    right = all(value(name, True) == value(name, False) for name in searched)
    return move, right


def test_aima_pythons_expect_minmax_is_graded_as_written_on_every_tree() -> None:
    # On trees where every leaf follows a move, it runs to the end on every hidden tree;
    # it passes where its division by the number of outcomes keeps the textbook's move and
    # the values its helpers return, and fails where it does not.
    base = CATALOG.get("expectiminimax-rescaling")
    exercise = dataclasses.replace(
        base, hidden=dataclasses.replace(base.hidden, leaves_after_moves=True)
    )
    exercise = dataclasses.replace(exercise, trees=())
    report = graded(AIMA_EXPECT_MINMAX, exercise)
    drawn = cases(exercise, DEVELOPMENT_KEY, EXERCISES, "student-modules")
    for case, result in zip(drawn, report["cases"], strict=True):
        move, right = published_search(case.tree)
        best = best_actions(exercise, case.tree)
        expected = "passed" if move in best and right else "failed"
        assert result["verdict"] == expected, case.name
    assert {result["verdict"] for result in report["cases"]} == {"passed", "failed"}


def test_aima_pythons_expect_minmax_runs_as_written_where_it_fits() -> None:
    # Its chance outcomes must be decision states (dice then a move), as in backgammon:
    # it reads state.to_move, asks each chance of the previous outcome, and its
    # max_value / min_value never test for the end of the game.
    tree = parse_compact(
        "MAX[ CHANCE[1/2*MIN[3 5] 1/2*MIN[6 1]] CHANCE[1/4*MIN[2 4] 3/4*MIN[8 9]] ]"
    )
    base = CATALOG.get("expectiminimax-rescaling")
    exercise = dataclasses.replace(
        base,
        trees=(ExerciseTree("dice-then-move", tree, "test"),),
        hidden=dataclasses.replace(base.hidden, count=0),
    )
    report = graded(AIMA_EXPECT_MINMAX, exercise)
    assert_passes(report)
    assert report["cases"][0]["decision"]["actual"] == "a2"
