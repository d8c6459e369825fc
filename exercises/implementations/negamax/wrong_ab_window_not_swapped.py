# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: passes (-alpha, -beta) to the child: negated but not swapped
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at B2
# misconception: window negated but not swapped (negamax)
# explanation: Negating a window turns the lower bound into an upper bound: (α, β) seen by the
#   opponent is (−β, −α). This search passes (−α, −β), whose lower end is above its upper end, an
#   empty window, so every child stops after its first move and the values backed up are not minimax
#   values.
# pseudocode: Figure 5.7 in negamax form (MAX-VALUE for the player to move), v ← MAX(v,
#   −NEGAMAX(RESULT(s, a), −β, −α))
# hint: After negating both bounds, which one is now the smaller? Check which goes first in the
#   call.
"""The child gets an inverted window (lower bound above upper bound)."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action), -alpha, -beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v
