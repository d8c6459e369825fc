# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: wrong
# bug: searches every child with the full window (-inf, +inf), so no bound reaches the next level
# first-divergence: tictactoe-depth2-alphabeta at D2
# misconception: window not passed down
# explanation: A child must be searched with the node's current window, MIN-VALUE(RESULT(s, a), α,
#   β, depth − 1), so that what the players above already have reaches it. This search gives every
#   child the full window (−∞, +∞): the node itself still prunes on its own children's values, but
#   no bound ever reaches the level below, so grandchildren never prune.
# pseudocode: Section 5.4, Figure 5.7 with the cut-off, MAX-VALUE: v ← MAX(v, MIN-VALUE(RESULT(s,
#   a), α, β, depth − 1))
# hint: What do you pass to a child as its α and β, and where did the bounds this node learned go?
"""The bounds are kept but never handed down."""

import math


def max_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), -math.inf, math.inf, depth - 1))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), -math.inf, math.inf, depth - 1))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
