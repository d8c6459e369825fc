# exercise: aima-fig5.2-alphabeta
# matches: none
# related: none
# style: whose turn it is comes from a global ply counter, not restored on a cut-off's return
"""Alpha-beta where a global counter tracks the ply, to know who moves in a child."""

import math

ply = 0


def search_child(game, state, alpha, beta):
    global ply
    ply += 1
    if ply % 2 == 1:
        return min_value(game, state, alpha, beta)
    return max_value(game, state, alpha, beta)


def max_value(game, state, alpha, beta):
    global ply
    if game.terminal_test(state):
        ply -= 1
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, search_child(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    ply -= 1
    return v


def min_value(game, state, alpha, beta):
    global ply
    if game.terminal_test(state):
        ply -= 1
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, search_child(game, game.result(state, action), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    ply -= 1
    return v
