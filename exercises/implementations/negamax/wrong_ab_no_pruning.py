# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: keeps alpha up to date but never prunes: plain negamax with extra arguments
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at C2
"""The value is right; every leaf is searched."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action), -beta, -alpha))
        alpha = max(alpha, v)
    return v
