# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: wrong
# bug: scores a cut-off state 0 instead of asking game.eval
# first-divergence: tictactoe-depth2-alphabeta at B1
# misconception: cut-off position scored 0 (alpha-beta)
# explanation: When CUTOFF-TEST stops the search at a position that is not finished, the position is
#   worth EVAL(state), the heuristic estimate of how good it is for MAX. This search returns 0
#   there, as if every unfinished game were a draw: the heuristic is never used, and α and β move on
#   the wrong values.
# pseudocode: Section 5.4, Figure 5.7 with the cut-off, MAX-VALUE: if CUTOFF-TEST(state, depth) then
#   return EVAL(state)
# hint: Where does your search use the evaluation function the exercise gives you?
"""A position that is not finished counts as a draw."""

import math


def max_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return 0
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
        return 0
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
