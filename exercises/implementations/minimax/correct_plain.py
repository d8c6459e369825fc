# family: minimax
# algorithms: minimax
# expect: correct
"""Minimax as in AIMA section 5.2: MAX-VALUE and MIN-VALUE call each other."""

import math


def max_value(game, state):
    """The minimax value of a state where MAX is to move."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    """The minimax value of a state where MIN is to move."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action)))
    return v
