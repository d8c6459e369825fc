# family: negamax
# algorithms: negamax-alphabeta
# expect: correct
# pruning: strict
# bug: under AIMA's rule it goes on searching when v == beta, where it should prune
# first-divergence: aima-fig5.2-negamax-alphabeta/tie at C2
"""Negamax with alpha-beta and the strict pruning rule (v > beta)."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action), -beta, -alpha))
        if v > beta:
            return v
        alpha = max(alpha, v)
    return v
