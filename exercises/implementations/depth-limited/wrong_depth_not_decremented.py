# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: passes depth to the children unchanged, so the search is never cut off
# first-divergence: tictactoe-depth2-heuristic at B1.1
# misconception: depth never decreases
# explanation: Each ply uses up one level of the limit: children are searched with depth − 1, so
#   CUTOFF-TEST becomes true after the allowed number of plies. This search passes the depth on
#   unchanged, so the cut-off is never reached: it is plain minimax to the end of the game, which is
#   what the depth limit is there to avoid.
# pseudocode: Section 5.4, H-MINIMAX (Figure 5.3 with the cut-off), MAX-VALUE: v ← MAX(v,
#   MIN-VALUE(RESULT(s, a), depth − 1))
# hint: Follow the depth argument from the root down to a leaf: when does it reach 0?
"""Plain minimax with a depth argument that never changes."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth))
    return v
