# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: calls the child's search again to take its value, searching that subtree twice
# first-divergence: aima-fig5.2-alphabeta at B1
"""``if min_value(...) > v: v = min_value(...)`` gets the value right at twice the cost."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if min_value(game, child, alpha, beta) > v:
            v = min_value(game, child, alpha, beta)
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if max_value(game, child, alpha, beta) < v:
            v = max_value(game, child, alpha, beta)
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
