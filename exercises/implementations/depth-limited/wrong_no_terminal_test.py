# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: never tests for terminal states, so a game that ends before the cut-off is worth -inf / +inf
# first-divergence: none
"""Only the depth decides when to stop; a finished game has no actions to search."""

import math


def max_value(game, state, depth):
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
