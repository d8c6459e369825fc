"""The in-process runner and judge for the library's trusted implementations."""

from __future__ import annotations

import pytest

from reference.exercises import ENTRY_POINTS, Exercise
from reference.hidden import judge_source, reference_judge, run_trusted
from reference.search import SearchOptions
from reference.treefile import parse_compact

FIG_5_2 = parse_compact("MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]")

MINIMAX = """
import math

def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return max(min_value(game, game.result(state, a)) for a in game.actions(state))

def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return min(max_value(game, game.result(state, a)) for a in game.actions(state))
"""


def make_exercise(algorithm: str = "minimax", **options: object) -> Exercise:
    return Exercise(
        slug="test",
        title="test",
        statement="",
        algorithm=algorithm,
        options=SearchOptions(**options),  # type: ignore[arg-type]
        entry_points=ENTRY_POINTS[algorithm],
        trees=(),
    )


def decision_module(action: str) -> str:
    """A decision function that searches every leaf left to right, then answers ``action``."""
    return f"""
def minmax_decision(state, game):
    def search(state):
        if game.terminal_test(state):
            game.utility(state, "MAX")
            return
        for action in game.actions(state):
            search(game.result(state, action))
    search(state)
    return {action!r}
"""


def test_a_correct_search_agrees_and_its_run_is_recorded() -> None:
    outcome = run_trusted(MINIMAX, make_exercise(), FIG_5_2)
    assert outcome.error is None and outcome.value == 3
    assert outcome.evaluated() == ["B1", "B2", "B3", "C1", "C2", "C3", "D1", "D2", "D3"]
    returns = {seen.node: seen.value for seen in outcome.seen if seen.what == "return"}
    assert returns == {"A": 3, "B": 3, "C": 2, "D": 2} | {
        leaf.name: leaf.utility for leaf in FIG_5_2.leaves()
    }
    assert judge_source(MINIMAX, make_exercise(), FIG_5_2) is None


def test_a_leaf_searched_twice_is_named() -> None:
    twice = MINIMAX.replace(
        'return game.utility(state, "MAX")\n    return max',
        'game.utility(state, "MAX")\n        return game.utility(state, "MAX")\n    return max',
        1,
    )
    assert twice != MINIMAX
    # B is a MIN node, so its leaves go through max_value: B1 is scored twice.
    assert judge_source(twice, make_exercise(), FIG_5_2) == "B1"


def test_a_leaf_the_reference_prunes_is_named() -> None:
    no_pruning = MINIMAX.replace("(game, state):", "(game, state, *window):")
    # Plain minimax under an alpha-beta exercise searches C2, which the reference prunes.
    assert judge_source(no_pruning, make_exercise("alphabeta"), FIG_5_2) == "C2"


def test_a_leaf_searched_out_of_order_is_named_by_the_reference() -> None:
    backwards = MINIMAX.replace("in game.actions(state)", "in game.actions(state)[::-1]")
    assert judge_source(backwards, make_exercise(), FIG_5_2) == "B1"


def test_any_best_action_is_a_correct_decision() -> None:
    tie = parse_compact("MAX[ MIN[3 5] MIN[4 3] MIN[1 9] ]")
    exercise = make_exercise()
    assert judge_source(decision_module("a1"), exercise, tie) is None
    assert judge_source(decision_module("a2"), exercise, tie) is None
    assert judge_source(decision_module("a3"), exercise, tie) == "A"
    assert judge_source(decision_module("nonsense"), exercise, tie) == "A"


def test_fail_hard_and_fail_soft_values_both_pass_outside_the_window() -> None:
    fail_hard = """
def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    for action in game.actions(state):
        alpha = max(alpha, min_value(game, game.result(state, action), alpha, beta))
        if alpha >= beta:
            return beta
    return alpha

def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    for action in game.actions(state):
        beta = min(beta, max_value(game, game.result(state, action), alpha, beta))
        if beta <= alpha:
            return alpha
    return beta
"""
    outcome = run_trusted(fail_hard, make_exercise("alphabeta"), FIG_5_2)
    returns = {seen.node: seen.value for seen in outcome.seen if seen.what == "return"}
    assert returns["C"] == 3  # the bound; the reference (fail-soft) says 2
    assert judge_source(fail_hard, make_exercise("alphabeta"), FIG_5_2) is None


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def max_value(game, state):\n    return (", "SyntaxError"),
        ("x = 1\n", "no entry points"),
        (
            "def max_value(game, state):\n    return 1 / 0\n"
            "def min_value(game, state):\n    pass\n",
            "ZeroDivisionError",
        ),
    ],
)
def test_broken_code_is_an_error_not_an_exception(source: str, message: str) -> None:
    outcome = run_trusted(source, make_exercise(), FIG_5_2)
    assert outcome.error is not None and message in outcome.error
    assert reference_judge(make_exercise())(source, FIG_5_2)


def test_the_game_refuses_what_a_game_would_refuse() -> None:
    misuse = """
def max_value(game, state):
    return game.utility(state, "MAX")

def min_value(game, state):
    return 0
"""
    outcome = run_trusted(misuse, make_exercise(), FIG_5_2)
    assert outcome.error is not None and "not terminal" in outcome.error
    assert judge_source(misuse, make_exercise(), FIG_5_2) == "A"
    chance = "def max_value(game, state):\n    return game.chance_outcomes(state)\n"
    chance += "def min_value(game, state):\n    return 0\n"
    assert "chance" in (run_trusted(chance, make_exercise(), FIG_5_2).error or "")
