# exercise: tictactoe-depth2-heuristic
# matches: none
# related: depth-limited/wrong_cutoff_one_early
# style: scores cut-off children in the parent's loop with game.eval(state), the parent's state
"""Depth-limited minimax that scores the last ply in the loop, saving a call."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if depth - 1 == 0 and not game.terminal_test(child):
            v = max(v, game.eval(state))
        else:
            v = max(v, min_value(game, child, depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if depth - 1 == 0 and not game.terminal_test(child):
            v = min(v, game.eval(state))
        else:
            v = min(v, max_value(game, child, depth - 1))
    return v
