# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: cuts off at depth 1 instead of 0, one ply too early
# first-divergence: tictactoe-depth2-heuristic at B
# misconception: cut off one ply early
# explanation: With depth counting down, CUTOFF-TEST is true when the depth left reaches 0: the
#   search looks exactly as many plies ahead as the limit says. This search stops when one ply is
#   still left, so it applies EVAL one ply above where it should and looks one move less ahead than
#   the exercise asks.
# pseudocode: Section 5.4, H-MINIMAX (Figure 5.3 with the cut-off), MAX-VALUE: if CUTOFF-TEST(state,
#   depth) then return EVAL(state)
# hint: With a limit of 1, how many moves should be made before a position is evaluated? Count the
#   plies your search actually makes.
"""``if depth <= 1`` where ``if depth == 0`` was meant."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth <= 1:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth <= 1:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
