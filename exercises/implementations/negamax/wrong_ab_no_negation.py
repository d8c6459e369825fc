# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: backs up the child's value without negating it
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at B
# misconception: child's value not negated (negamax alpha-beta)
# explanation: Negamax values every state for the player to move there, so a child's value is the
#   opponent's and must be negated before this player compares it: v ← MAX(v, −NEGAMAX(...)). This
#   search takes the child's value as it is, so each player maximizes the opponent's payoff; the
#   values and the bounds passed down are wrong.
# pseudocode: Figure 5.7 in negamax form (MAX-VALUE for the player to move), v ← MAX(v,
#   −NEGAMAX(RESULT(s, a), −β, −α))
# hint: Whose point of view is a child's value in, and whose point of view is v in?
"""``max(v, negamax(...))`` where ``max(v, -negamax(...))`` was meant."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, negamax(game, game.result(state, action), -beta, -alpha))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v
