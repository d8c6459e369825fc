# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: cuts off at depth 1 instead of 0, one ply too early
# first-divergence: tictactoe-depth2-heuristic at B
"""``if depth <= 1`` where ``if depth == 0`` was meant."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth <= 1:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth <= 1:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
