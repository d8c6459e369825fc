# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: wrong
# bug: passes depth to the children unchanged, so the search is never cut off
# first-divergence: tictactoe-depth2-alphabeta at B1.1
"""The limit is given but never spent."""

import math


def max_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta, depth))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
