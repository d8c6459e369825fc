# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: MAX-VALUE prunes when v >= alpha and MIN-VALUE when v <= beta (compared with its own bound)
# first-divergence: aima-fig5.2-alphabeta at B2
# misconception: cut-off tested against its own bound
# explanation: MAX-VALUE may stop when v ≥ β: MIN, higher up, already has a way to hold MAX to β, so
#   it will never let the game reach this node. This search compares v with the node's own bound
#   instead (MAX with α, MIN with β). Since v has just been folded in, the test is nearly always
#   true, so nodes stop after their first child and return values that are not the minimax value.
# pseudocode: Figure 5.7, MAX-VALUE: if v ≥ β then return v
# hint: Which player's bound tells MAX-VALUE that the player above will never let the game get here?
#   Check which bound each cut-off test uses.
"""Prunes far too much: the root stops after its first child."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v >= alpha:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        if v <= beta:
            return v
        beta = min(beta, v)
    return v
