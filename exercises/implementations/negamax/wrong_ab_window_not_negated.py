# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: passes (alpha, beta) to the child unchanged instead of (-beta, -alpha)
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at C2
"""The child's window is in the wrong player's terms."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v
