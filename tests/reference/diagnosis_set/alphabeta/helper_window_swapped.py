# exercise: tictactoe-seed-alphabeta
# matches: alphabeta/wrong_window_swapped
# related: none
# style: the child gets (beta, alpha); recursion through a private helper _alphabeta(maximizing)
"""Alpha-beta through one helper for both players."""

import math


def max_value(game, state, alpha, beta):
    return _alphabeta(game, state, alpha, beta, True)


def min_value(game, state, alpha, beta):
    return _alphabeta(game, state, alpha, beta, False)


def _alphabeta(game, state, alpha, beta, maximizing):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if maximizing:
        v = -math.inf
        for action in game.actions(state):
            v = max(v, _alphabeta(game, game.result(state, action), beta, alpha, False))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for action in game.actions(state):
        v = min(v, _alphabeta(game, game.result(state, action), beta, alpha, True))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
