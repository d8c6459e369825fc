# family: negamax
# algorithms: negamax
# expect: wrong
# bug: scores a leaf for the player who just moved instead of the player to move there
# first-divergence: grundy-7-negamax at B1.1.1.1
# misconception: leaf scored for the player who just moved
# explanation: Negamax scores a terminal state for the player to move there, because the node above
#   negates it into the value for the player who moved. This search scores the leaf for the player
#   who just moved, so the negation above flips it once too often: every leaf has the wrong sign.
# pseudocode: Figure 5.3 in negamax form (MAX-VALUE for the player to move), if TERMINAL-TEST(state)
#   then return UTILITY(state, TO-MOVE(state))
# hint: Follow a leaf's value up one ply: after the negation, whose payoff is it?
"""The sign of every leaf is flipped."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MIN" if game.to_move(state) == "MAX" else "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action)))
    return v
