# exercise: tictactoe-seed-minimax
# matches: none
# related: none
# style: MAX stops at the first child worth 1 or more (a win cannot be beaten); successors
"""Tic-tac-toe minimax; a win for X is worth 1, so MAX need not look further."""

import math

WIN = 1


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    best = -math.inf
    for _, child in game.successors(state):
        best = max(best, min_value(game, child))
        if best >= WIN:
            break
    return best


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    best = math.inf
    for _, child in game.successors(state):
        best = min(best, max_value(game, child))
    return best
