"""Numbers are numbers, graded through the sandbox: a search computing with numpy passes, and
a search returning no number is told so, in the same words, on public and hidden trees."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from reference.exercises import Exercise, load_catalog
from reference.hidden import DEVELOPMENT_KEY
from reference.observed import ValueProblem
from reference.reporting.cases import hidden_reasons
from reference.tree import Kind
from worker.grading import grade
from worker.trees import cases

pytest.importorskip("numpy")

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
CATALOG = load_catalog(EXERCISES)
EXPECTIMINIMAX = CATALOG.get("expectiminimax-rescaling")
MINIMAX = CATALOG.get("aima-fig5.2-minimax")
DRAW = "numbers"


def graded(source: str, exercise: Exercise) -> dict[str, Any]:
    return grade(
        exercise,
        textwrap.dedent(source),
        "search.py",
        key=DEVELOPMENT_KEY,
        exercises_dir=EXERCISES,
        draw=DRAW,
    ).to_json()


NUMPY_EXPECTIMINIMAX = """
import numpy as np


def value(game, state):
    if game.terminal_test(state):
        return np.float64(game.utility(state, "MAX"))
    player = game.to_move(state)
    if player == "MAX":
        return max_value(game, state)
    if player == "MIN":
        return min_value(game, state)
    return exp_value(game, state)


def max_value(game, state):
    return np.max([value(game, game.result(state, a)) for a in game.actions(state)])


def min_value(game, state):
    return np.min([value(game, game.result(state, a)) for a in game.actions(state)])


def exp_value(game, state):
    outcomes = game.chance_outcomes(state)
    probs = np.array([float(p) for _, p in outcomes])
    values = np.array([value(game, game.result(state, a)) for a, _ in outcomes])
    return np.dot(probs, values)
"""


def test_an_expectiminimax_returning_numpy_float64_passes() -> None:
    report = graded(NUMPY_EXPECTIMINIMAX, EXPECTIMINIMAX)
    assert report["verdict"] == "passed", (report["message"], report["cases"][0])
    assert report["score"] == report["max_score"]
    assert any(case["hidden"] for case in report["cases"])


TUPLES = """
import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX"), None
    best = (-math.inf, None)
    for action in game.actions(state):
        v, _ = min_value(game, game.result(state, action))
        if v > best[0]:
            best = (v, action)
    return best


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX"), None
    best = (math.inf, None)
    for action in game.actions(state):
        v, _ = max_value(game, game.result(state, action))
        if v < best[0]:
            best = (v, action)
    return best
"""


def test_a_tuple_for_a_number_is_told_as_not_a_number_on_hidden_trees_too() -> None:
    report = graded(TUPLES, MINIMAX)
    public = [case for case in report["cases"] if not case["hidden"]]
    hidden = [case for case in report["cases"] if case["hidden"]]
    assert public and hidden
    said = ValueProblem.NOT_A_NUMBER.value  # "returned something that is not a number"
    assert said in public[0]["first_divergence"]["message"]
    root = hidden_reasons(MINIMAX)[0]
    for case in hidden:
        assert case["verdict"] == "failed"
        assert case["message"] == f"{root}: your search {said}"
        assert set(case) <= {"name", "hidden", "verdict", "message"}


TUPLES_BELOW_THE_ROOT = """
import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return max(min_value(game, game.result(state, a))[0] for a in game.actions(state))


def min_value(game, state):
    if game.terminal_test(state):
        return (game.utility(state, "MAX"),)
    return (min(max_value(game, game.result(state, a)) for a in game.actions(state)),)
"""


def test_a_tuple_below_a_right_root_is_told_as_not_a_number_below_the_root() -> None:
    # Only min_value returns tuples: below a MAX root, where max_value unpacks them, the
    # root's value is right; a MIN root returns one itself.
    report = graded(TUPLES_BELOW_THE_ROOT, MINIMAX)
    root, below = hidden_reasons(MINIMAX)[0], hidden_reasons(MINIMAX)[2]
    said = ValueProblem.NOT_A_NUMBER.value
    drawn = cases(MINIMAX, DEVELOPMENT_KEY, EXERCISES, DRAW)
    for case, result in zip(drawn, report["cases"], strict=True):
        if case.hidden:
            reason = below if case.tree.root.kind is Kind.MAX else root
            assert result["message"] == f"{reason}: your search {said}", case.name
    assert any(case.hidden and case.tree.root.kind is Kind.MAX for case in drawn)
