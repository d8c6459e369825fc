# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: correct
# pruning: on-equality
# bug: under the strict rule it prunes on v == beta or v == alpha, where the search should go on
# first-divergence: tictactoe-depth2-alphabeta at D2
"""Depth-limited alpha-beta with AIMA's CUTOFF-TEST and ``game.successors``; depth counts down."""

import math


def cutoff_test(game, state, depth):
    """True when the search stops at ``state``: the game is over or no plies are left."""
    return game.terminal_test(state) or depth == 0


def score(game, state):
    """A finished game's utility for MAX, otherwise the evaluation."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return game.eval(state)


def max_value(game, state, alpha, beta, depth):
    if cutoff_test(game, state, depth):
        return score(game, state)
    v = -math.inf
    for _, child in game.successors(state):
        v = max(v, min_value(game, child, alpha, beta, depth - 1))
        if v >= beta:
            break
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth):
    if cutoff_test(game, state, depth):
        return score(game, state)
    v = math.inf
    for _, child in game.successors(state):
        v = min(v, max_value(game, child, alpha, beta, depth - 1))
        if v <= alpha:
            break
        beta = min(beta, v)
    return v
