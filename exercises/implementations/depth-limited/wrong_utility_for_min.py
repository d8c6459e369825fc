# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: asks for the utility from MIN's point of view, so every finished game has the wrong sign
# first-divergence: none
"""game.utility(state, "MIN") is the negation of what minimax backs up."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MIN")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MIN")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
