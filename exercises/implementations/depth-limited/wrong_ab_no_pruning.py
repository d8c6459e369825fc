# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: wrong
# bug: keeps alpha and beta up to date but never prunes: depth-limited minimax with extra arguments
# first-divergence: tictactoe-depth2-alphabeta at D2
"""The value is right; every position at the cut-off is evaluated."""

import math


def max_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta, depth - 1))
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth - 1))
        beta = min(beta, v)
    return v
