# exercise: tictactoe-depth2-alphabeta
# matches: depth-limited/wrong_ab_no_pruning
# related: none
# style: alpha and beta kept up to date but never used to prune; while loops over an index
"""Depth-limited alpha-beta with while loops."""


def max_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    acts = game.actions(state)
    val = float("-inf")
    j = 0
    while j < len(acts):
        val = max(val, min_value(game, game.result(state, acts[j]), alpha, beta, depth - 1))
        alpha = max(alpha, val)
        j += 1
    return val


def min_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    acts = game.actions(state)
    val = float("inf")
    j = 0
    while j < len(acts):
        val = min(val, max_value(game, game.result(state, acts[j]), alpha, beta, depth - 1))
        beta = min(beta, val)
        j += 1
    return val
