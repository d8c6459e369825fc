# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: returns beta instead of v when no child prunes
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at B
# misconception: returns beta instead of v (negamax)
# explanation: After the loop, a node that did not prune must return v, the value of its best move.
#   This search returns β, the opponent's bound, instead: every node that searched all its moves
#   reports the bound it was given, so the value of the game is lost (at the root it is +∞).
# pseudocode: Figure 5.7 in negamax form (MAX-VALUE for the player to move), return v
# hint: At the end of the loop, which number is the node's own value, and which was handed down by
#   the opponent?
"""Returns the upper bound where the node's own value belongs."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action), -beta, -alpha))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return beta
