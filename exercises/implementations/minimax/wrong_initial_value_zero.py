# family: minimax
# algorithms: minimax
# expect: wrong
# bug: MAX-VALUE starts v at 0 instead of -inf, so a node whose children are all negative is worth 0
# first-divergence: fantan-1-3-minimax at C2
# misconception: MAX's v starts at 0, not −∞
# explanation: MAX-VALUE must start with v ← −∞ so that the first child's value always replaces it.
#   Starting at 0 acts as if MAX had a move worth 0 before looking at any: when every move available
#   to MAX has a negative value, the node is reported as worth 0, a value that no move reaches.
#   Trees whose utilities are all positive, like Figure 5.2, hide the mistake.
# pseudocode: Figure 5.3, MAX-VALUE: v ← −∞
# hint: Think of a MAX node where every move loses (negative utilities only). What value does your
#   MAX node report before it has looked at any child?
"""v = 0 looks harmless on trees with positive utilities, like Figure 5.2."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = 0
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action)))
    return v
