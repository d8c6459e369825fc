# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: prunes when v <= alpha (the child did not improve) instead of when v >= beta
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at B3
"""Stops at the first child that is no better than what the player already has."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action), -beta, -alpha))
        if v <= alpha:
            return v
        alpha = max(alpha, v)
    return v
