# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: wrong
# bug: never tests for terminal states: a game over before the cut-off is searched as if it went on
# first-divergence: none
# misconception: no terminal test before the cut-off (alpha-beta)
# explanation: CUTOFF-TEST must also be true in a terminal state: a game that is over before the
#   depth limit is scored by its UTILITY, whatever depth is left. This search only tests the depth,
#   so a finished game above the cut-off has no actions to loop over and is reported as −∞ or +∞
#   instead of its utility.
# pseudocode: Section 5.4, Figure 5.7 with the cut-off, MAX-VALUE: if TERMINAL-TEST(state) then
#   return UTILITY(state)
# hint: What happens in your search when the game ends (someone wins) before the depth limit is
#   reached?
"""A finished game with no moves left is worth -inf / +inf."""

import math


def max_value(game, state, alpha, beta, depth):
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth):
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
