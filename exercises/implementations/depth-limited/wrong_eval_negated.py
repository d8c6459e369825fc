# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: negates the evaluation at every cut-off state, reading game.eval as MIN's score
# first-divergence: tictactoe-depth2-heuristic at B1
"""game.eval is from MAX's point of view, like the utility."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return -game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return -game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
