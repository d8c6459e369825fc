# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: MIN-VALUE returns alpha instead of v when no child prunes
# first-divergence: aima-fig5.2-alphabeta at B
# misconception: MIN-VALUE returns alpha, not v
# explanation: After its loop MIN-VALUE must return v, the smallest value among its children. This
#   search returns α instead, MAX's best value so far on the path: the value of the MIN node is
#   lost, so the MAX node above never sees a better move than the one it already had, and the root's
#   value is wrong.
# pseudocode: Figure 5.7, MIN-VALUE: return v
# hint: At the end of MIN-VALUE, which value is the node's own, and which belongs to the player
#   above?
"""Returns MAX's bound where its own value belongs."""

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
        beta = min(beta, v)
    return alpha
