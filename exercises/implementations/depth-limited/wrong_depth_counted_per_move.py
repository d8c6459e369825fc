# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: only MIN-VALUE decrements depth, so the limit counts moves of both players, not plies
# first-divergence: tictactoe-depth2-heuristic at B1.1
"""A depth of 2 searches four plies."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
