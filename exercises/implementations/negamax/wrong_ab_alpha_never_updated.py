# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: never raises alpha, so children are searched with the window they would get first
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at C2
# misconception: alpha never raised (negamax alpha-beta)
# explanation: In negamax alpha-beta, α is the best value the player to move is already sure of;
#   after a move worth v it must be raised (Figure 5.7's α ← MAX(α, v) in MAX-VALUE), and the next
#   child is searched with the window (−β, −α). This search never raises α, so every child gets the
#   window the first child got: the value is right, but the opponent's nodes below never learn what
#   this player already has and never prune.
# pseudocode: Figure 5.7 in negamax form (MAX-VALUE for the player to move), α ← MAX(α, v)
# hint: After a good move is found, what changes in the window the next child is searched with?
"""The line alpha = max(alpha, v) is missing."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action), -beta, -alpha))
        if v >= beta:
            return v
    return v
