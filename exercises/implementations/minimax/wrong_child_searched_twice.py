# family: minimax
# algorithms: minimax
# expect: wrong
# bug: calls the search again on a child that improves v, searching its subtree twice
# first-divergence: aima-fig5.2-minimax at B1
"""``if min_value(...) > v: v = min_value(...)`` gets the value right at twice the cost."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if min_value(game, child) > v:
            v = min_value(game, child)
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if max_value(game, child) < v:
            v = max_value(game, child)
    return v
