# family: negamax
# algorithms: negamax
# expect: wrong
# bug: takes the minimum of the negated child values instead of the maximum
# first-divergence: grundy-7-negamax at B1
# misconception: player to move minimizes (negamax)
# explanation: Negamax values a node for the player to move, who picks the move with the highest
#   negated child value. This search takes the lowest, so every player picks the move that is worst
#   for itself: the value is that of a game in which both players try to lose.
# pseudocode: Figure 5.3 in negamax form (MAX-VALUE for the player to move), v ← MAX(v,
#   −NEGAMAX(RESULT(s, a)))
# hint: At any node, does the player to move want v to go up or down? Check both the starting value
#   and the update.
"""Every player picks the move that is worst for itself."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = math.inf
    for action in game.actions(state):
        v = min(v, -negamax(game, game.result(state, action)))
    return v
