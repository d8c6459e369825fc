# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: wrong
# bug: negates the evaluation at every cut-off state, reading game.eval as MIN's score
# first-divergence: tictactoe-depth2-alphabeta at B1
# misconception: evaluation read from MIN's side (alpha-beta)
# explanation: EVAL(state), like UTILITY, estimates how good a position is for MAX; MAX-VALUE and
#   MIN-VALUE use it as it is. This search negates it at every cut-off, as if it were MIN's score:
#   positions good for MAX look bad, so MAX steers towards the positions the heuristic rates worst.
# pseudocode: Section 5.4, Figure 5.7 with the cut-off, MAX-VALUE: if CUTOFF-TEST(state, depth) then
#   return EVAL(state)
# hint: For which player is the evaluation function's number good when it is high? Check the sign at
#   the cut-off.
"""``-game.eval(state)``: the heuristic from the wrong side."""

import math


def max_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return -game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return -game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
