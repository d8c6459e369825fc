# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: MAX-VALUE never raises alpha, so MIN nodes below it cannot prune
# first-divergence: aima-fig5.2-alphabeta at C2
# misconception: alpha never raised at MAX nodes
# explanation: α is the value of the best choice found so far for MAX along the path. After
#   MAX-VALUE finds a move worth v it must raise α, so that the MIN nodes it searches next can stop
#   as soon as they are worth no more than that. This search never raises α: the value is still
#   right, but MIN nodes below a MAX node never prune, and the search visits leaves that alpha-beta
#   would skip.
# pseudocode: Figure 5.7, MAX-VALUE: α ← MAX(α, v)
# hint: When MAX-VALUE has found a good move, how do the MIN nodes it searches next learn about it?
#   Follow what happens to the window after each child.
"""The line alpha = max(alpha, v) is missing."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
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
    return v
