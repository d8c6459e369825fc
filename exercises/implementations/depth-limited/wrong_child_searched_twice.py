# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: calls the child's search a second time to take its value, searching that subtree twice
# first-divergence: tictactoe-depth2-heuristic at B1
# misconception: child's subtree searched twice (depth-limited)
# explanation: Each child is searched once and its value folded into v. This search calls MIN-VALUE
#   (or MAX-VALUE) once to compare the child with v and again to take its value, so every child that
#   improves v has its subtree searched twice and its cut-off positions evaluated twice. The value
#   is right at a much higher cost.
# pseudocode: Section 5.4, H-MINIMAX (Figure 5.3 with the cut-off), MAX-VALUE: v ← MAX(v,
#   MIN-VALUE(RESULT(s, a), depth − 1))
# hint: Count how many times your search is called on one child. Could you keep its value after the
#   first call?
"""``if min_value(...) > v: v = min_value(...)`` gets the value right at twice the cost."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if min_value(game, child, depth - 1) > v:
            v = min_value(game, child, depth - 1)
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if max_value(game, child, depth - 1) < v:
            v = max_value(game, child, depth - 1)
    return v
