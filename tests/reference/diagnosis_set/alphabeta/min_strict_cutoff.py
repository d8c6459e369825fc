# exercise: alphabeta-deep-cutoff
# matches: none
# related: alphabeta/correct_strict
# style: MAX prunes on v >= beta, MIN only on v < alpha (strict at MIN only); plain functions
"""Alpha-beta, AIMA Figure 5.7."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
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
