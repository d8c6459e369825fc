# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: wrong
# bug: cuts off at depth 1 instead of 0, one ply too early
# first-divergence: tictactoe-depth2-alphabeta at B
# misconception: cut off one ply early (alpha-beta)
# explanation: With depth counting down, CUTOFF-TEST is true when the depth left reaches 0: the
#   search looks exactly as many plies ahead as the limit says. This search stops when one ply is
#   still left, so it applies EVAL one ply above where it should and looks one move less ahead than
#   the exercise asks.
# pseudocode: Section 5.4, Figure 5.7 with the cut-off, MAX-VALUE: if CUTOFF-TEST(state, depth) then
#   return EVAL(state)
# hint: With a limit of 1, how many moves should be made before a position is evaluated? Count the
#   plies your search actually makes.
"""``depth <= 1`` where the cut-off is ``depth == 0``."""

import math


def max_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth <= 1:
        return game.eval(state)
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
    if depth <= 1:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
