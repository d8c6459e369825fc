# family: minimax
# algorithms: minimax
# expect: wrong
# bug: "return v" is indented into the loop, so every node returns after its first child
# first-divergence: aima-fig5.2-minimax at B2
# misconception: returns after the first child
# explanation: MAX-VALUE and MIN-VALUE must look at every action in ACTIONS(state) before returning
#   v. Here the return is inside the loop, so each node returns as soon as its first child has been
#   valued: only the leftmost path of the tree is searched, and its leaf's utility is reported as
#   the value of the game.
# pseudocode: Figure 5.3, MAX-VALUE: for each a in ACTIONS(state) do … return v
# hint: How many children does each node look at before it returns? Check where the return sits
#   relative to the loop.
"""Only the leftmost path is ever searched."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action)))
        return v
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action)))
        return v
    return v
