# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: searches the children right to left, so it prunes other nodes than the reference
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at B1
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
