# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: only MIN-VALUE decrements depth, so the limit counts moves of both players, not plies
# first-divergence: tictactoe-depth2-heuristic at B1.1
# misconception: depth counted per pair of moves
# explanation: The depth limit counts plies: each move, MAX's or MIN's, uses up one level, so both
#   MAX-VALUE and MIN-VALUE search their children with depth − 1. Here only MIN-VALUE decreases it,
#   so a limit of d searches 2d plies (a move of each player per level): the search goes deeper than
#   asked and evaluates different positions.
# pseudocode: Section 5.4, H-MINIMAX (Figure 5.3 with the cut-off), MAX-VALUE: v ← MAX(v,
#   MIN-VALUE(RESULT(s, a), depth − 1))
# hint: Does a move by MAX use up any of the depth? Follow the depth argument through one MAX move
#   and one MIN move.
"""A depth of 2 searches four plies."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
