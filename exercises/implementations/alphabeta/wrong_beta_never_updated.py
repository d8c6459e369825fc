# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: MIN-VALUE never lowers beta, so MAX nodes below it cannot prune
# first-divergence: alphabeta-deep-cutoff/min-root at D2
# misconception: beta never lowered at MIN nodes
# explanation: β is the value of the best choice found so far for MIN along the path. After
#   MIN-VALUE finds a reply worth v it must lower β, so that the MAX nodes it searches next can stop
#   as soon as they are worth at least that much. This search never lowers β: the value is right,
#   but MAX nodes below a MIN node never prune. It only shows on trees deeper than two plies, where
#   MAX nodes hang below MIN nodes.
# pseudocode: Figure 5.7, MIN-VALUE: β ← MIN(β, v)
# hint: When MIN-VALUE has found a good reply, how do the MAX nodes it searches next learn about it?
#   Try a tree three plies deep.
"""The line beta = min(beta, v) is missing; it only shows on trees deeper than two plies."""

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
        if v <= alpha:
            return v
    return v
