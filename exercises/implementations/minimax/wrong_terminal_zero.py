# family: minimax
# algorithms: minimax
# expect: wrong
# bug: a terminal state is worth 0 (a draw) instead of its utility
# first-divergence: aima-fig5.2-minimax at B1
"""The search never asks for a utility at all."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return 0
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return 0
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action)))
    return v
