# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: calls the child's search again to take its value, searching that subtree twice
# first-divergence: aima-fig5.2-alphabeta at B1
# misconception: child's subtree searched twice
# explanation: Each child is searched once, and its value folded into v with v ← MAX(v,
#   MIN-VALUE(RESULT(s, a), α, β)). This search calls MIN-VALUE (or MAX-VALUE) once to compare the
#   child with v and again to take its value, so every child that improves v has its whole subtree
#   searched a second time. The value is right, but the saving alpha-beta is about is thrown away
#   and more.
# pseudocode: Figure 5.7, MAX-VALUE: v ← MAX(v, MIN-VALUE(RESULT(s, a), α, β))
# hint: Count how many times your search is called on one child. Could you keep the child's value
#   after the first call?
"""``if min_value(...) > v: v = min_value(...)`` gets the value right at twice the cost."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if min_value(game, child, alpha, beta) > v:
            v = min_value(game, child, alpha, beta)
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if max_value(game, child, alpha, beta) < v:
            v = max_value(game, child, alpha, beta)
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
