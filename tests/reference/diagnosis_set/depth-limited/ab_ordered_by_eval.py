# exercise: tictactoe-depth2-alphabeta
# matches: none
# related: depth-limited/wrong_ab_right_to_left
# style: MAX searches its children best-evaluated first (move ordering by game.eval); sorted()
"""Depth-limited alpha-beta with move ordering at MAX nodes, to prune more."""

import math


def max_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    children = [game.result(state, action) for action in game.actions(state)]
    children = sorted(children, key=game.eval, reverse=True)
    v = -math.inf
    for child in children:
        v = max(v, min_value(game, child, alpha, beta, depth - 1))
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
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
