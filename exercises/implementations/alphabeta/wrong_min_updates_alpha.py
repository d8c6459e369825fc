# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: MIN-VALUE updates alpha = max(alpha, v) instead of beta = min(beta, v)
# first-divergence: aima-fig5.2-alphabeta at B3
# misconception: MIN-VALUE updates alpha instead of beta
# explanation: MIN-VALUE must narrow MIN's own bound, β ← MIN(β, v). This search raises α (MAX's
#   bound) in MIN-VALUE instead, with the value of a reply MAX has not chosen: α then claims MAX is
#   sure of a value it is not, so later children are pruned where they must not be and β never
#   narrows.
# pseudocode: Figure 5.7, MIN-VALUE: β ← MIN(β, v)
# hint: Which bound belongs to the player choosing at a MIN node? Check which bound your MIN-VALUE
#   changes.
"""MIN narrows MAX's bound, which makes it prune where it must not."""

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
        alpha = max(alpha, v)
    return v
