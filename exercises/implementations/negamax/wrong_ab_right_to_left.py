# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: searches the children right to left, so it prunes other nodes than the reference
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at B1
# misconception: moves searched right to left (negamax alpha-beta)
# explanation: The search takes the actions from last to first instead of in the order
#   ACTIONS(state) gives them. The value is unchanged, but pruning depends on the order in which
#   moves are examined, so different nodes are pruned than the exercise expects.
# pseudocode: Figure 5.7 in negamax form (MAX-VALUE for the player to move), for each a in
#   ACTIONS(state) do
# hint: In which order does your loop go through the actions? Compare your first leaf with the
#   leftmost leaf of the tree.
"""``reversed(game.actions(state))``."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in reversed(game.actions(state)):
        v = max(v, -negamax(game, game.result(state, action), -beta, -alpha))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v
