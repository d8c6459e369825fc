# family: negamax
# algorithms: negamax
# expect: wrong
# bug: assigns each negated child value to v instead of the maximum: the last child wins
# first-divergence: grundy-7-negamax at B1
# misconception: v replaced by each child, not compared (negamax)
# explanation: Negamax keeps the best negated child value, v ← MAX(v, −NEGAMAX(...)). This search
#   overwrites v with each child's negated value in turn, so a node is worth its last move, whatever
#   the others are worth: no player chooses.
# pseudocode: Figure 5.3 in negamax form (MAX-VALUE for the player to move), v ← MAX(v,
#   −NEGAMAX(RESULT(s, a)))
# hint: After the loop, does v depend on any child but the last? Look at how v is updated.
"""``v = -negamax(...)`` where ``v = max(v, -negamax(...))`` was meant."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = -negamax(game, game.result(state, action))
    return v
