# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: never tests for terminal states, so a game that ends before the cut-off is worth -inf / +inf
# first-divergence: none
# misconception: no terminal test before the cut-off
# explanation: CUTOFF-TEST must also be true in a terminal state: a game that is over before the
#   depth limit is scored by its UTILITY, whatever depth is left. This search only tests the depth,
#   so a finished game above the cut-off has no actions to loop over and is reported as −∞ or +∞
#   instead of its utility. Trees whose games all last past the limit hide it.
# pseudocode: Section 5.4, H-MINIMAX (Figure 5.3 with the cut-off), MAX-VALUE: if
#   TERMINAL-TEST(state) then return UTILITY(state)
# hint: What happens in your search when the game ends (someone wins) before the depth limit is
#   reached?
"""Only the depth decides when to stop; a finished game has no actions to search."""

import math


def max_value(game, state, depth):
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
