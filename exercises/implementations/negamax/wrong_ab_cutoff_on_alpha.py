# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: prunes when v <= alpha (the child did not improve) instead of when v >= beta
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at B3
# misconception: prunes when a move does not improve (negamax alpha-beta)
# explanation: A node may stop when v ≥ β: its opponent, one ply up, already has a move that keeps
#   this player to β, so the game will not come here (Figure 5.7's if v ≥ β then return v). This
#   search stops when v ≤ α instead, that is, as soon as a move is no better than what the player
#   already has: it gives up on the remaining moves, which may be better, so values and pruned nodes
#   are wrong.
# pseudocode: Figure 5.7 in negamax form (MAX-VALUE for the player to move), if v ≥ β then return v
# hint: A move that is no better than the best so far is simply not chosen; which condition means
#   the opponent above will never let the game reach this node?
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
