# family: minimax
# algorithms: minimax
# expect: wrong
# bug: assigns each child's value to v instead of taking the max / min: the last child wins
# first-divergence: aima-fig5.2-minimax at B
# misconception: v replaced by each child, not compared
# explanation: MAX-VALUE must keep the best value seen so far, v ← MAX(v, MIN-VALUE(...)), and
#   MIN-VALUE the worst for MAX. This search overwrites v with each child's value in turn, so a node
#   is worth whatever its last child is worth: MAX and MIN no longer choose at all.
# pseudocode: Figure 5.3, MAX-VALUE: v ← MAX(v, MIN-VALUE(RESULT(s, a)))
# hint: After the loop, does v depend on the children before the last one? Look at how v is updated
#   in each pass.
"""``v = min_value(...)`` where ``v = max(v, min_value(...))`` was meant."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = min_value(game, game.result(state, action))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = max_value(game, game.result(state, action))
    return v
