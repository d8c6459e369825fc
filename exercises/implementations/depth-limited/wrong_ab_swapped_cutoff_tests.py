# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: wrong
# bug: MAX prunes on v <= alpha and MIN on v >= beta: the two tests are swapped
# first-divergence: tictactoe-depth2-alphabeta at B
# misconception: cut-off tests of MAX and MIN swapped (depth-limited)
# explanation: MAX-VALUE may stop when v ≥ β (MIN above will not allow it) and MIN-VALUE when v ≤ α.
#   This search swaps the tests, so each player stops on the other player's condition: nodes stop
#   where they must go on and go on where they could stop, and the values and pruned positions are
#   wrong.
# pseudocode: Section 5.4, Figure 5.7 with the cut-off, MAX-VALUE: if v ≥ β then return v
# hint: At a MAX node, which bound tells you that MIN higher up will never let the game reach here,
#   and in which direction does v have to cross it?
"""Each function tests the other player's bound."""

import math


def max_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v <= alpha:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v >= beta:
            return v
        beta = min(beta, v)
    return v
