# family: negamax
# algorithms: negamax
# expect: wrong
# bug: backs up the children's values without negating them
# first-divergence: grundy-7-negamax at B1.1.1
# misconception: child's value not negated (negamax)
# explanation: Negamax values every state for the player to move there, so a child's value belongs
#   to the opponent and must be negated before this player compares it. This search takes the
#   child's value as it is: every player maximizes the opponent's payoff.
# pseudocode: Figure 5.3 in negamax form (MAX-VALUE for the player to move), v ← MAX(v,
#   −NEGAMAX(RESULT(s, a)))
# hint: Whose point of view is a child's value in, and whose point of view is v in?
"""``max(v, negamax(...))`` where ``max(v, -negamax(...))`` was meant."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, negamax(game, game.result(state, action)))
    return v
