# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: MAX-VALUE calls MAX-VALUE and MIN-VALUE calls MIN-VALUE on the children
# first-divergence: tictactoe-depth2-heuristic at B
"""The players do not alternate below the root."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, max_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, min_value(game, game.result(state, action), depth - 1))
    return v
