# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: wrong
# bug: never tests for terminal states: a game over before the cut-off is searched as if it went on
# first-divergence: none
"""A finished game with no moves left is worth -inf / +inf."""

import math


def max_value(game, state, alpha, beta, depth):
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth):
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
