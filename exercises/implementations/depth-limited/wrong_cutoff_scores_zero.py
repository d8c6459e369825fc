# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: scores a cut-off state 0 instead of asking game.eval
# first-divergence: tictactoe-depth2-heuristic at B1
# misconception: cut-off position scored 0
# explanation: When CUTOFF-TEST stops the search at a position that is not finished, the position is
#   worth EVAL(state), the heuristic estimate of how good it is for MAX. This search returns 0
#   there, as if every unfinished game were a draw: the heuristic is never used, and only finished
#   games tell the positions apart.
# pseudocode: Section 5.4, H-MINIMAX (Figure 5.3 with the cut-off), MAX-VALUE: if CUTOFF-TEST(state,
#   depth) then return EVAL(state)
# hint: Where does your search use the evaluation function the exercise gives you?
"""The cut-off is in the right place; the heuristic is never used."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return 0
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return 0
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
