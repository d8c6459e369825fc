# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: on a cut-off it sets v to the bound but does not return, so it searches on
# first-divergence: aima-fig5.2-alphabeta at C2
"""The test is there, the return is not."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            v = beta
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        if v <= alpha:
            v = alpha
        beta = min(beta, v)
    return v
