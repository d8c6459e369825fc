# family: alphabeta
# algorithms: alphabeta
# expect: correct
# pruning: on-equality
# bug: under the strict rule it prunes on v == beta / v == alpha, where the search should go on
# first-divergence: connectfour-endgame-alphabeta at D2.3
"""ALPHA-BETA-SEARCH as in AIMA section 5.3 (fail-soft: a node returns its v)."""

import math


def max_value(game, state, alpha, beta):
    """The value of a MAX state, exact when it lies strictly between alpha and beta."""
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
    """The value of a MIN state, exact when it lies strictly between alpha and beta."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
