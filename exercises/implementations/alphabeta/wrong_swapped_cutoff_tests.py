# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: MAX-VALUE prunes on v <= alpha and MIN-VALUE on v >= beta (the two tests swapped)
# first-divergence: aima-fig5.2-alphabeta at B3
# misconception: cut-off tests of MAX and MIN swapped
# explanation: MAX-VALUE may stop when v ≥ β (MIN above will not allow it) and MIN-VALUE when v ≤ α.
#   This search swaps the tests: MAX-VALUE stops when v ≤ α and MIN-VALUE when v ≥ β, which are the
#   conditions of the other player. Nodes stop where they must go on, and go on where they could
#   stop, so the values and the pruned nodes are wrong.
# pseudocode: Figure 5.7, MAX-VALUE: if v ≥ β then return v
# hint: At a MAX node, which bound tells you that MIN higher up will never let the game reach here,
#   and in which direction does v have to cross it?
"""Each player stops on the other player's condition."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v <= alpha:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        beta = min(beta, v)
    return v
