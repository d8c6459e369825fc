# family: minimax
# algorithms: minimax
# expect: wrong
# bug: MAX-VALUE takes the minimum and MIN-VALUE the maximum
# first-divergence: aima-fig5.2-minimax at B
# misconception: MAX minimizes and MIN maximizes
# explanation: MAX-VALUE must back up the largest value of its children and MIN-VALUE the smallest.
#   The functions call each other in the right alternation, but each makes the other player's
#   choice: MAX picks the move that is worst for itself and MIN the one that is best for MAX, so the
#   value is that of a game in which both players try to lose.
# pseudocode: Figure 5.3, MAX-VALUE: v ← MAX(v, MIN-VALUE(RESULT(s, a)))
# hint: At a MAX node, does the value go up or down as more children are seen? Check both the
#   starting value and the update.
"""The two functions call each other correctly but each backs up the other player's choice."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, min_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, max_value(game, game.result(state, action)))
    return v
