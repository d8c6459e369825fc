# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: scores every terminal state for MAX instead of for the player to move
# first-divergence: none
"""``game.utility(state, "MAX")``: right below MIN nodes, where MAX is to move at the leaves."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action), -beta, -alpha))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v
