# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: MIN-VALUE never lowers beta, so MAX nodes below it cannot prune
# first-divergence: alphabeta-deep-cutoff/min-root at D2
"""The line beta = min(beta, v) is missing; it only shows on trees deeper than two plies."""

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
        if v <= alpha:
            return v
    return v
