# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: MAX-VALUE prunes on v <= alpha and MIN-VALUE on v >= beta (the two tests swapped)
# first-divergence: aima-fig5.2-alphabeta at B3
"""Each player stops on the other player's condition."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v <= alpha:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        beta = min(beta, v)
    return v
