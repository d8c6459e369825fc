# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: passes (beta, alpha) to the child instead of (alpha, beta)
# first-divergence: aima-fig5.2-alphabeta at B2
"""The child gets an inverted window and prunes at once."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), beta, alpha))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), beta, alpha))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
