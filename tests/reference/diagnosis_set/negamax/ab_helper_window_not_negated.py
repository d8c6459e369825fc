# exercise: aima-fig5.2-negamax-alphabeta
# matches: negamax/wrong_ab_window_not_negated
# related: none
# style: the child gets (alpha, beta) unchanged; recursion through a private helper _search
"""Negamax with alpha-beta; the entry point hands over to a helper."""

import math


def negamax(game, state, alpha, beta):
    return _search(game, state, alpha, beta)


def _search(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    best = -math.inf
    for action in game.actions(state):
        best = max(best, -_search(game, game.result(state, action), alpha, beta))
        if best >= beta:
            return best
        alpha = max(alpha, best)
    return best
