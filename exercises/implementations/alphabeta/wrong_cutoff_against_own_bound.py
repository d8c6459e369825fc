# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: MAX-VALUE prunes when v >= alpha and MIN-VALUE when v <= beta (compared with its own bound)
# first-divergence: aima-fig5.2-alphabeta at B2
"""Prunes far too much: the root stops after its first child."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v >= alpha:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        if v <= beta:
            return v
        beta = min(beta, v)
    return v
