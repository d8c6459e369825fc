# exercise: tictactoe-depth2-heuristic
# matches: depth-limited/wrong_depth_counted_per_move
# related: none
# style: only MIN's moves spend depth; recursion through a private helper _value(player)
"""Depth-limited minimax through one helper."""

import math


def max_value(game, state, depth):
    return _value(game, state, depth, "MAX")


def min_value(game, state, depth):
    return _value(game, state, depth, "MIN")


def _value(game, state, depth, player):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    if player == "MAX":
        v = -math.inf
        for action in game.actions(state):
            v = max(v, _value(game, game.result(state, action), depth, "MIN"))
        return v
    v = math.inf
    for action in game.actions(state):
        v = min(v, _value(game, game.result(state, action), depth - 1, "MAX"))
    return v
