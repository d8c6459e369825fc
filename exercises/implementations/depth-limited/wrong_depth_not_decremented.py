# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: passes depth to the children unchanged, so the search is never cut off
# first-divergence: tictactoe-depth2-heuristic at B1.1
"""Plain minimax with a depth argument that never changes."""

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
        v = min(v, max_value(game, game.result(state, action), depth))
    return v
