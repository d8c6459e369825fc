# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: returns beta instead of v when no child prunes
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at B
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
