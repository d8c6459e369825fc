# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: on a cut-off it sets v to the bound but does not return, so it searches on
# first-divergence: aima-fig5.2-alphabeta at C2
# misconception: cut-off detected but search goes on
# explanation: When v ≥ β in MAX-VALUE (or v ≤ α in MIN-VALUE) the node is no use to the player
#   above and must return at once: that return is the pruning. This search notices the condition and
#   clips v to the bound but keeps going through the remaining actions, so nothing is pruned and the
#   nodes that alpha-beta skips are searched anyway.
# pseudocode: Figure 5.7, MAX-VALUE: if v ≥ β then return v
# hint: What should happen to the remaining actions of a node once the cut-off test is true? Look at
#   what your code does after the test succeeds.
"""The test is there, the return is not."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            v = beta
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        if v <= alpha:
            v = alpha
        beta = min(beta, v)
    return v
