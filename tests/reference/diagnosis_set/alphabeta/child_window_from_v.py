# exercise: alphabeta-deep-cutoff
# matches: none
# related: none
# style: the child's window is built from v (the best so far here), dropping the bound inherited
"""Alpha-beta: a child only needs to know what this node already has."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), v, beta))
        if v >= beta:
            return v
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, v))
        if v <= alpha:
            return v
    return v
