# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: wrong
# bug: MAX-VALUE never raises alpha, so MIN nodes below it cannot prune
# first-divergence: tictactoe-depth2-alphabeta at D2
# misconception: alpha never raised at MAX nodes (depth-limited)
# explanation: α is the value of the best choice found so far for MAX along the path; after
#   MAX-VALUE finds a move worth v it must raise α so that the MIN nodes it searches next can stop
#   early. This search never raises α: the value is right, but MIN nodes below a MAX node never
#   prune, so more positions are evaluated at the cut-off than alpha-beta needs.
# pseudocode: Section 5.4, Figure 5.7 with the cut-off, MAX-VALUE: α ← MAX(α, v)
# hint: When MAX-VALUE has found a good move, how do the MIN nodes it searches next learn about it?
"""The line alpha = max(alpha, v) is missing."""

import math


def max_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v >= beta:
            return v
    return v


def min_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
