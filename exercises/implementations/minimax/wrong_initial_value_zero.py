# family: minimax
# algorithms: minimax
# expect: wrong
# bug: MAX-VALUE starts v at 0 instead of -inf, so a node whose children are all negative is worth 0
# first-divergence: fantan-1-3-minimax at C2
"""v = 0 looks harmless on trees with positive utilities, like Figure 5.2."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = 0
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action)))
    return v
