# exercise: aima-fig5.2-minimax
# matches: minimax/wrong_return_in_loop
# related: none
# style: return inside the loop; recursion through a private helper _search(maximizing)
"""Minimax through one helper that knows whose turn it is."""

import math


def max_value(game, state):
    return _search(game, state, True)


def min_value(game, state):
    return _search(game, state, False)


def _search(game, state, maximizing):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    best = -math.inf if maximizing else math.inf
    for action in game.actions(state):
        child = _search(game, game.result(state, action), not maximizing)
        best = max(best, child) if maximizing else min(best, child)
        return best
