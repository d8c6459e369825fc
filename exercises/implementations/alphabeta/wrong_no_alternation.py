# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: MAX-VALUE calls MAX-VALUE and MIN-VALUE calls MIN-VALUE on the children
# first-divergence: aima-fig5.2-alphabeta at B
"""The players do not alternate below the root."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, max_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, min_value(game, game.result(state, action), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
