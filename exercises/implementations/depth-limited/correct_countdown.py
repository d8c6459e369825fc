# family: depth-limited
# algorithms: depth-limited-minimax
# expect: correct
"""Depth-limited minimax: ``depth`` is the number of plies still to search, and counts down.

The root is searched with the exercise's depth limit; a state reached with depth 0 that
is not terminal is scored by ``game.eval``.
"""

import math


def max_value(game, state, depth):
    """The value of a MAX state searched ``depth`` more plies deep."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    """The value of a MIN state searched ``depth`` more plies deep."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
