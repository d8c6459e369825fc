# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: scores a cut-off state 0 instead of asking game.eval
# first-divergence: tictactoe-depth2-heuristic at B1
"""The cut-off is in the right place; the heuristic is never used."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return 0
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return 0
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
