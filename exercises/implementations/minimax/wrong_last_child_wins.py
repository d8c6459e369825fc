# family: minimax
# algorithms: minimax
# expect: wrong
# bug: assigns each child's value to v instead of taking the max / min: the last child wins
# first-divergence: aima-fig5.2-minimax at B
"""``v = min_value(...)`` where ``v = max(v, min_value(...))`` was meant."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = min_value(game, game.result(state, action))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = max_value(game, game.result(state, action))
    return v
