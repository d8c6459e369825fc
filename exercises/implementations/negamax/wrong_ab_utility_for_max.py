# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: scores every terminal state for MAX instead of for the player to move
# first-divergence: none
# misconception: leaf scored for MAX (negamax alpha-beta)
# explanation: Negamax scores a terminal state for the player to move there, UTILITY(state,
#   TO-MOVE(state)), because every node maximizes for its own mover. This search scores every
#   terminal state for MAX: leaves where MAX is to move are right, but where MIN is to move the
#   value has the wrong sign.
# pseudocode: Figure 5.7 in negamax form (MAX-VALUE for the player to move), if TERMINAL-TEST(state)
#   then return UTILITY(state, TO-MOVE(state))
# hint: In negamax, for whom is a node's value? Does that player change from one leaf to another?
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
