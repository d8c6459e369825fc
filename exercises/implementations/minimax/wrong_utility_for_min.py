# family: minimax
# algorithms: minimax
# expect: wrong
# bug: asks for the utility from MIN's point of view, so every leaf has the wrong sign
# first-divergence: aima-fig5.2-minimax at B1
# misconception: utility from MIN's point of view
# explanation: Minimax values every state from MAX's point of view: UTILITY(state) is the payoff for
#   MAX, and MAX-VALUE maximizes it. This search asks for the utility for MIN, which in a zero-sum
#   game is its negation, so every leaf has the wrong sign and MAX ends up choosing the moves that
#   are worst for it.
# pseudocode: Figure 5.3, MAX-VALUE: if TERMINAL-TEST(state) then return UTILITY(state)
# hint: For which player do you ask the utility of a leaf? Which player's payoff do MAX-VALUE and
#   MIN-VALUE compare?
"""game.utility(state, "MIN") is the negation of what MAX-VALUE / MIN-VALUE back up."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MIN")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MIN")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action)))
    return v
