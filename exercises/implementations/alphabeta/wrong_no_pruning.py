# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: keeps alpha and beta up to date but never prunes: plain minimax with extra arguments
# first-divergence: aima-fig5.2-alphabeta at C2
"""The value is right; every leaf is searched."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
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
