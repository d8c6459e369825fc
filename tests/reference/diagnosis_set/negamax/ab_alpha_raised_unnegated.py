# exercise: aima-fig5.2-negamax-alphabeta
# matches: none
# related: none
# style: alpha is raised with the child's own value, not its negation; plain function
"""Negamax with alpha-beta."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    best = -math.inf
    for action in game.actions(state):
        score = negamax(game, game.result(state, action), -beta, -alpha)
        best = max(best, -score)
        if best >= beta:
            return best
        alpha = max(alpha, score)
    return best
