# family: minimax
# algorithms: minimax
# expect: wrong
# bug: MAX-VALUE calls MAX-VALUE on its children, so MIN never gets a turn below the root
# first-divergence: aima-fig5.2-minimax at B
"""The players do not alternate: MAX chooses on every level."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, max_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, min_value(game, game.result(state, action)))
    return v
