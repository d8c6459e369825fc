# exercise: aima-fig5.2-alphabeta
# matches: none
# related: none
# style: the first child is searched with the full window (-inf, +inf), the others with (a, b)
"""Alpha-beta: the first move has nothing to compare with, so it gets no bounds."""

import math


def max_value(game, state, a, b):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    moves = game.actions(state)
    best = min_value(game, game.result(state, moves[0]), -math.inf, math.inf)
    if best >= b:
        return best
    a = max(a, best)
    for move in moves[1:]:
        best = max(best, min_value(game, game.result(state, move), a, b))
        if best >= b:
            return best
        a = max(a, best)
    return best


def min_value(game, state, a, b):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    moves = game.actions(state)
    best = max_value(game, game.result(state, moves[0]), -math.inf, math.inf)
    if best <= a:
        return best
    b = min(b, best)
    for move in moves[1:]:
        best = min(best, max_value(game, game.result(state, move), a, b))
        if best <= a:
            return best
        b = min(b, best)
    return best
