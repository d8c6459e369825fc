# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: calls the child's search a second time to take its value, searching that subtree twice
# first-divergence: tictactoe-depth2-heuristic at B1
"""``if min_value(...) > v: v = min_value(...)`` gets the value right at twice the cost."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if min_value(game, child, depth - 1) > v:
            v = min_value(game, child, depth - 1)
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if max_value(game, child, depth - 1) < v:
            v = max_value(game, child, depth - 1)
    return v
