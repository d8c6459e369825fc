# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: never raises alpha, so children are searched with the window they would get first
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at C2
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
