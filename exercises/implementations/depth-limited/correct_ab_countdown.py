# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: correct
# pruning: on-equality
# bug: under the strict rule it prunes on v == beta or v == alpha, where the search should go on
# first-divergence: tictactoe-depth2-alphabeta at D2
"""Depth-limited alpha-beta (fail-soft): ``depth`` is the number of plies still to search.

The root is searched with alpha = -inf, beta = +inf and the exercise's depth limit; a
state reached with depth 0 that is not terminal is scored by ``game.eval``.
"""

import math


def max_value(game, state, alpha, beta, depth):
    """The value of a MAX state searched ``depth`` more plies deep, exact inside (alpha, beta)."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
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
    """The value of a MIN state searched ``depth`` more plies deep, exact inside (alpha, beta)."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
