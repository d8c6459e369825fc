"""A search is compared on what of it could be seen: one that recurses through a function
of its own (``self._search``, ``_helper``) shows only its root's call, the leaves it scored
and the root's value, and the calls no harness saw are no disagreement."""

from __future__ import annotations

import pytest

from reference.diagnosis import Signature, Step, agreement, diagnose
from tests.reference.test_diagnosis import as_student, by_name, exercise, library, trees_of

NEGAMAX_CLASS = """
import math


class _Searcher:
    def negamax(self, game, state):
        return self._search(game, state)

    def _search(self, game, state):
        if game.terminal_test(state):
            return game.utility(state, game.to_move(state))
        best = -math.inf
        for action in {order}:
            best = max(best, -self._search(game, game.result(state, action)))
        return best


negamax = _Searcher().negamax
"""

ALPHABETA_HELPER = """
import math


def max_value(game, state, alpha, beta):
    return _value(game, state, alpha, beta, True)


def min_value(game, state, alpha, beta):
    return _value(game, state, alpha, beta, False)


def _value(game, state, alpha, beta, maximizing):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if maximizing:
        v = -math.inf
        for action in game.actions(state):
            v = max(v, _value(game, game.result(state, action), alpha, beta, False))
            if v >= beta:
                return v
            {raise_alpha}
        return v
    v = math.inf
    for action in game.actions(state):
        v = min(v, _value(game, game.result(state, action), alpha, beta, True))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
"""


def test_the_surface_is_the_roots_call_the_leaves_and_the_roots_value() -> None:
    steps = (
        Step("enter", "A", -9, 9),
        Step("enter", "B", -9, 9),
        Step("leaf", "B1", -9, 9, value=3),
        Step("leaf", "B2"),
        Step("exit", "B", -9, 9, value=3),
        Step("exit", "A", -9, 9, value=3),
    )
    signature = Signature(steps, inner_calls=False)
    assert signature.view == "surface"
    assert signature.surface() == (steps[0], Step("leaf", "B1"), Step("leaf", "B2"), steps[-1])
    assert Signature(steps).view == "steps"
    assert Signature(steps, decision_style=True).view == "leaves"
    # Compared on its surface, a search that shows only that agrees with the full one...
    assert agreement(signature, Signature(steps), True).matches
    # ... and parts from one whose root value differs.
    other = (*steps[:-1], Step("exit", "A", -9, 9, value=4))
    assert not agreement(signature, Signature(other), True).matches


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ("game.actions(state)", None),
        ("reversed(game.actions(state))", "negamax/wrong_right_to_left"),
    ],
)
def test_negamax_recursing_through_a_private_method_is_diagnosed_as_the_plain_one(
    order: str, expected: str | None
) -> None:
    found, trees = exercise("grundy-7-negamax"), trees_of("grundy-7-negamax")
    student = as_student(NEGAMAX_CLASS.format(order=order), found, trees)
    assert all(signature.view == "surface" for signature in student.values())
    diagnosis = diagnose(student, trees, found, library())
    if expected is None:
        # Correct: the calls no harness saw are no disagreement, on any tree.
        assert diagnosis is None
        return
    assert diagnosis is not None and diagnosis.exact, diagnosis
    first = diagnosis.misconceptions[0]
    assert expected in first.implementations
    assert first.matched == first.trees == len(trees)
    # The same mistake written as the library writes it gets the same diagnosis.
    plain = diagnose(as_student(by_name(expected).source, found, trees), trees, found, library())
    assert plain is not None and expected in plain.misconceptions[0].implementations


def test_alphabeta_through_a_helper_that_never_raises_alpha_is_told_so() -> None:
    found, trees = exercise("aima-fig5.2-alphabeta"), trees_of("aima-fig5.2-alphabeta")
    right = as_student(ALPHABETA_HELPER.format(raise_alpha="alpha = max(alpha, v)"), found, trees)
    assert diagnose(right, trees, found, library()) is None
    wrong = as_student(ALPHABETA_HELPER.format(raise_alpha="pass"), found, trees)
    diagnosis = diagnose(wrong, trees, found, library())
    assert diagnosis is not None and diagnosis.exact, diagnosis
    assert "alphabeta/wrong_alpha_never_updated" in diagnosis.misconceptions[0].implementations
