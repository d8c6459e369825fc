# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: searches the children right to left, which prunes different leaves
# first-divergence: aima-fig5.2-alphabeta at B1
"""reversed(game.actions(state)) visits the last child first."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in reversed(game.actions(state)):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in reversed(game.actions(state)):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
