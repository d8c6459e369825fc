# family: minimax
# algorithms: minimax
# expect: wrong
# bug: calls the search again on a child that improves v, searching its subtree twice
# first-divergence: aima-fig5.2-minimax at B1
# misconception: child's subtree searched twice
# explanation: MAX-VALUE compares MIN-VALUE(RESULT(s, a)) with v and then calls MIN-VALUE on the
#   same state again to take its value (and MIN-VALUE does the same with MAX-VALUE). The backed-up
#   values are right, but every child that improves v has its whole subtree searched a second time,
#   so the search visits many more nodes than minimax needs: the cost of a search grows with every
#   level where this happens, which is exactly what the textbook's O(b^m) analysis counts.
# pseudocode: Figure 5.3, MAX-VALUE: v ← MAX(v, MIN-VALUE(RESULT(s, a)))
# hint: Count how many times your search is called on one child of the root. Each child's value is
#   needed once: could you keep it after the first call?
"""``if min_value(...) > v: v = min_value(...)`` gets the value right at twice the cost."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if min_value(game, child) > v:
            v = min_value(game, child)
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if max_value(game, child) < v:
            v = max_value(game, child)
    return v
