# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: wrong
# bug: passes depth to the children unchanged, so the search is never cut off
# first-divergence: tictactoe-depth2-alphabeta at B1.1
# misconception: depth never decreases (alpha-beta)
# explanation: Each ply uses up one level of the limit: children are searched with depth − 1, so
#   CUTOFF-TEST becomes true after the allowed number of plies. This search passes the depth on
#   unchanged, so the cut-off is never reached: it searches to the end of the game, which is what
#   the depth limit is there to avoid.
# pseudocode: Section 5.4, Figure 5.7 with the cut-off, MAX-VALUE: v ← MAX(v, MIN-VALUE(RESULT(s,
#   a), α, β, depth − 1))
# hint: Follow the depth argument from the root down to a leaf: when does it reach 0?
"""The limit is given but never spent."""

import math


def max_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta, depth))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
