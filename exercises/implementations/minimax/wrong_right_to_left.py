# family: minimax
# algorithms: minimax
# expect: wrong
# bug: searches the children right to left; the value is right but the order of the search is not
# first-divergence: aima-fig5.2-minimax at B1
"""reversed(game.actions(state)) visits the last child first."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in reversed(game.actions(state)):
        v = max(v, min_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in reversed(game.actions(state)):
        v = min(v, max_value(game, game.result(state, action)))
    return v
