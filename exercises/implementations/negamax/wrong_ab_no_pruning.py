# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: keeps alpha up to date but never prunes: plain negamax with extra arguments
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at C2
# misconception: alpha kept but never used to prune (negamax)
# explanation: This search keeps α up to date and passes (−β, −α) down but never tests v ≥ β, so no
#   node ever stops early: it is plain negamax with two extra arguments. The value is right, but
#   every leaf is searched and alpha-beta's saving is lost.
# pseudocode: Figure 5.7 in negamax form (MAX-VALUE for the player to move), if v ≥ β then return v
# hint: Your window is computed, but where is it used? Find the moment a node can tell that the
#   opponent above will never let the game reach it.
"""The value is right; every leaf is searched."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action), -beta, -alpha))
        alpha = max(alpha, v)
    return v
