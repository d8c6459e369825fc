# family: minimax
# algorithms: minimax
# expect: wrong
# bug: MAX-VALUE takes the minimum and MIN-VALUE the maximum
# first-divergence: aima-fig5.2-minimax at B
"""The two functions call each other correctly but each backs up the other player's choice."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, min_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, max_value(game, game.result(state, action)))
    return v
