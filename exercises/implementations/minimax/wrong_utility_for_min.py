# family: minimax
# algorithms: minimax
# expect: wrong
# bug: asks for the utility from MIN's point of view, so every leaf has the wrong sign
# first-divergence: aima-fig5.2-minimax at B1
"""game.utility(state, "MIN") is the negation of what MAX-VALUE / MIN-VALUE back up."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MIN")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MIN")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action)))
    return v
