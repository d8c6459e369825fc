# family: minimax
# algorithms: minimax
# expect: wrong
# bug: "return v" is indented into the loop, so every node returns after its first child
# first-divergence: aima-fig5.2-minimax at B2
"""Only the leftmost path is ever searched."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action)))
        return v
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action)))
        return v
    return v
