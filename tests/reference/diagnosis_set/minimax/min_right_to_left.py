# exercise: aima-fig5.2-minimax
# matches: none
# related: minimax/wrong_right_to_left
# style: MIN searches its children right to left only; recursion through max_value/min_value
"""Minimax, AIMA 5.2."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    moves = game.actions(state)
    for i in range(len(moves) - 1, -1, -1):
        v = min(v, max_value(game, game.result(state, moves[i])))
    return v
