# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: asks for the utility from MIN's point of view, so every finished game has the wrong sign
# first-divergence: none
# misconception: utility from MIN's point of view (depth-limited)
# explanation: Finished games are scored by UTILITY(state) for MAX, on the same scale as EVAL. This
#   search asks for MIN's utility, the negation, so every finished game has the wrong sign while the
#   evaluations at the cut-off are right: a win for MAX looks like a loss. Only trees with games
#   ending before the cut-off show it.
# pseudocode: Section 5.4, H-MINIMAX (Figure 5.3 with the cut-off), MAX-VALUE: if
#   TERMINAL-TEST(state) then return UTILITY(state)
# hint: For which player do you ask the utility of a finished game, and for which player is the
#   evaluation function's number?
"""game.utility(state, "MIN") is the negation of what minimax backs up."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MIN")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MIN")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
