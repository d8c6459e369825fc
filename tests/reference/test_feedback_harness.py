"""Feedback on real code run through the in-process harness (what the worker records)."""

from __future__ import annotations

import textwrap

import pytest

from reference.feedback import TreeFeedback, Verdict, judge
from reference.search import search
from reference.treefile import parse_compact
from worker.harness.local import entry_spec, run_local

FIG52 = "MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]"

ALPHABETA = """
import math

def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, beta))
        if v >= beta:
            return {max_cut}
        alpha = max(alpha, v)
    return {max_end}

def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), alpha, beta))
        if v <= alpha:
            return {min_cut}
        beta = min(beta, v)
    return {min_end}
"""

SOFT = ALPHABETA.format(max_cut="v", max_end="v", min_cut="v", min_end="v")
HARD = ALPHABETA.format(max_cut="beta", max_end="alpha", min_cut="alpha", min_end="beta")
NO_PRUNING = SOFT.replace("return v\n        alpha", "pass\n        alpha").replace(
    "return v\n        beta", "pass\n        beta"
)

DECISION = """
import math

def alpha_beta_search(state, game):
    def max_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        v = -math.inf
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a), alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        v = math.inf
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_score, best_action = -math.inf, None
    for a in game.actions(state):
        v = min_value(game.result(state, a), best_score, math.inf)
        if v > best_score:
            best_score, best_action = v, a
    return best_action
"""


def run(source: str, text: str = FIG52) -> TreeFeedback:
    tree = parse_compact(text)
    spec = entry_spec("alphabeta", ("max_value", "min_value"), tree)
    local = run_local(tree, textwrap.dedent(source), spec)
    assert local.result.error is None, local.result.error
    return judge(tree, search(tree, "alphabeta"), local.observed)


@pytest.mark.parametrize("source", [SOFT, HARD], ids=["fail-soft", "fail-hard"])
def test_textbook_alphabeta_gets_full_marks(source: str) -> None:
    feedback = run(source)

    assert set(feedback.verdicts().values()) == {Verdict.OK, Verdict.PRUNED}
    assert feedback.first_divergence is None and feedback.score == 100


def test_alphabeta_without_pruning() -> None:
    feedback = run(NO_PRUNING)

    assert feedback.verdicts()["C2"] is feedback.verdicts()["C3"] is Verdict.EXTRA
    assert feedback.first_divergence is not None
    assert feedback.first_divergence.message == (
        "At C (MIN, alpha = 3): after C1 returned 2, v = 2 <= alpha = 3, "
        "so C could return at once; your search went on to C2."
    )


def test_the_decision_function_form() -> None:
    feedback = run(DECISION)

    # Its helpers' values are judged; the root's is its own loop's, and not seen.
    verdicts = feedback.verdicts()
    assert verdicts.pop("A") is Verdict.NOT_OBSERVED
    assert set(verdicts.values()) == {Verdict.OK, Verdict.PRUNED}
    assert (feedback.decision_actual, feedback.decision_ok, feedback.score) == ("a1", True, 100)
