"""Implementations an instructor might add to the alpha-beta exercises' library, and the
shipped ones they are compared with."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "exercises"
ALPHABETA = EXERCISES / "implementations" / "alphabeta"
SLUG = "aima-fig5.2-alphabeta"

SHIPPED = "alphabeta/wrong_alpha_never_updated"
SHIPPED_SOURCE = (ALPHABETA / "wrong_alpha_never_updated.py").read_text(encoding="utf-8")
CORRECT_SOURCE = "".join(
    line
    for line in (ALPHABETA / "correct_search.py").read_text(encoding="utf-8").splitlines(True)
    if not line.startswith("#")
)
"""A correct search, without the header that says so."""

MIN_NEVER_PRUNES = """\
# misconception: MIN nodes never prune
# explanation: MIN-VALUE lowers beta but never compares its value with alpha, so a MIN node
#   goes on searching moves MAX already has a better choice than.
# pseudocode: Figure 5.7, MIN-VALUE: if v <= alpha then return v
# hint: After MIN-VALUE finds a move worth v, what should it compare v with?
import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        beta = min(beta, v)
    return v
"""
"""A misconception the shipped library does not hold: MIN-VALUE without its cut-off."""

RAISES = """\
def max_value(game, state, alpha, beta):
    return 1 / 0


def min_value(game, state, alpha, beta):
    return 1 / 0
"""
