# exercise: tictactoe-depth2-heuristic
# matches: none
# related: none
# style: reads depth as plies already searched, counting up to a limit of its own; successors
"""Depth-limited minimax: depth is how deep we are, cut off at LIMIT."""

import math

LIMIT = 2


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth >= LIMIT:
        return game.eval(state)
    v = -math.inf
    for _, child in game.successors(state):
        v = max(v, min_value(game, child, depth + 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth >= LIMIT:
        return game.eval(state)
    v = math.inf
    for _, child in game.successors(state):
        v = min(v, max_value(game, child, depth + 1))
    return v
