# family: alphabeta
# algorithms: alphabeta
# expect: correct
# pruning: strict
# bug: under AIMA's rule it goes on searching when v == beta / v == alpha, where it should prune
# first-divergence: connectfour-endgame-alphabeta at D2.3
"""Alpha-beta with the strict pruning rule of the Berkeley CS188 projects (v > beta, v < alpha)."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v > beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        if v < alpha:
            return v
        beta = min(beta, v)
    return v
