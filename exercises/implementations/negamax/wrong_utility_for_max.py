# family: negamax
# algorithms: negamax
# expect: wrong
# bug: scores every leaf from MAX's point of view, not the point of view of the player to move there
# first-divergence: grundy-7-negamax at B1.1.1.1
# misconception: leaf scored for MAX (negamax)
# explanation: Negamax scores a terminal state for the player to move there, UTILITY(state,
#   TO-MOVE(state)), because every node maximizes for its own mover. This search scores every leaf
#   for MAX: leaves where MAX is to move are right, but where MIN is to move the value has the wrong
#   sign.
# pseudocode: Figure 5.3 in negamax form (MAX-VALUE for the player to move), if TERMINAL-TEST(state)
#   then return UTILITY(state, TO-MOVE(state))
# hint: In negamax, for whom is a node's value? Does that player change from one leaf to another?
"""Right for leaves where MAX is to move, wrong sign where MIN is."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action)))
    return v
