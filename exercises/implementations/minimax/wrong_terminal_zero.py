# family: minimax
# algorithms: minimax
# expect: wrong
# bug: a terminal state is worth 0 (a draw) instead of its utility
# first-divergence: aima-fig5.2-minimax at B1
# misconception: terminal states scored 0
# explanation: When TERMINAL-TEST(state) is true, MAX-VALUE and MIN-VALUE must return
#   UTILITY(state), the payoff of that finished game for MAX. This search returns 0 for every
#   terminal state, as if every game ended in a draw: all the information in the leaves is lost and
#   every node is worth 0.
# pseudocode: Figure 5.3, MAX-VALUE: if TERMINAL-TEST(state) then return UTILITY(state)
# hint: Where does your search learn how a finished game turned out? Look at what a leaf returns.
"""The search never asks for a utility at all."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return 0
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return 0
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action)))
    return v
