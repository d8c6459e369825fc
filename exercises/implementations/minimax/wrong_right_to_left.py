# family: minimax
# algorithms: minimax
# expect: wrong
# bug: searches the children right to left; the value is right but the order of the search is not
# first-divergence: aima-fig5.2-minimax at B1
# misconception: children searched right to left
# explanation: The search visits the actions of a state from last to first instead of in the order
#   ACTIONS(state) gives them. Minimax's value does not depend on the order, so the values are
#   right, but the order in which nodes are visited is not the one the exercise (and the textbook's
#   figures) expects, and with alpha-beta the order decides what is pruned.
# pseudocode: Figure 5.3, MAX-VALUE: for each a in ACTIONS(state) do
# hint: In which order does your loop go through the actions? Compare the first leaf you visit with
#   the leftmost leaf of the tree.
"""reversed(game.actions(state)) visits the last child first."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in reversed(game.actions(state)):
        v = max(v, min_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in reversed(game.actions(state)):
        v = min(v, max_value(game, game.result(state, action)))
    return v
