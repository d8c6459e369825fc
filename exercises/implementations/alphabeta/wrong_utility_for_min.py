# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: asks for the utility from MIN's point of view, so every leaf has the wrong sign
# first-divergence: aima-fig5.2-alphabeta at B1
# misconception: utility from MIN's point of view
# explanation: Alpha-beta values every state from MAX's point of view: UTILITY(state) is MAX's
#   payoff, α and β are bounds on it. This search asks for the utility for MIN, its negation in a
#   zero-sum game, so every leaf has the wrong sign and MAX chooses the moves that are worst for it.
# pseudocode: Figure 5.7, MAX-VALUE: if TERMINAL-TEST(state) then return UTILITY(state)
# hint: For which player do you ask the utility of a leaf? Which player's payoff do α and β bound?
"""game.utility(state, "MIN") is the negation of what alpha-beta backs up."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MIN")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MIN")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
