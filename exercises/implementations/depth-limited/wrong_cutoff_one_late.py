# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: cuts off below depth 0 (depth < 0), one ply too late
# first-divergence: tictactoe-depth2-heuristic at B1.1
# misconception: cut off one ply late
# explanation: With depth counting down, CUTOFF-TEST is true when the depth left reaches 0. This
#   search only stops below 0, so it searches one ply deeper than the limit and applies EVAL to
#   positions one move further on than the exercise asks: more positions are evaluated and the value
#   can differ.
# pseudocode: Section 5.4, H-MINIMAX (Figure 5.3 with the cut-off), MAX-VALUE: if CUTOFF-TEST(state,
#   depth) then return EVAL(state)
# hint: With a limit of 1, how many moves should be made before a position is evaluated? Count the
#   plies your search actually makes.
"""Searches one ply deeper than the limit."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth < 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth < 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
