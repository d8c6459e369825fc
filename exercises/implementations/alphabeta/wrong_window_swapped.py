# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: passes (beta, alpha) to the child instead of (alpha, beta)
# first-divergence: aima-fig5.2-alphabeta at B2
# misconception: window passed as (beta, alpha)
# explanation: A child must be searched with the same window, MIN-VALUE(RESULT(s, a), α, β): α stays
#   MAX's bound and β MIN's. This search passes them the other way round: from the root the child
#   gets α = +∞ and β = −∞, an empty window, so every node below stops after its first child and
#   the values backed up are not minimax values.
# pseudocode: Figure 5.7, MAX-VALUE: v ← MAX(v, MIN-VALUE(RESULT(s, a), α, β))
# hint: Look at the order of the bounds in the call on a child, and compare it with the order in the
#   function's own parameters.
"""The child gets an inverted window and prunes at once."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), beta, alpha))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), beta, alpha))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
