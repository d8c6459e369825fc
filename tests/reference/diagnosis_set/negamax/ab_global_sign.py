# exercise: aima-fig5.2-negamax-alphabeta
# matches: none
# related: none
# style: a leaf's sign comes from a global ply counter not restored on a cut-off's return
"""Negamax with alpha-beta: a global ply tells whose point of view a leaf is scored from."""

import math

ply = 0


def negamax(game, state, alpha, beta):
    global ply
    if game.terminal_test(state):
        sign = 1 if ply % 2 == 0 else -1
        return sign * game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        ply += 1
        v = max(v, -negamax(game, game.result(state, action), -beta, -alpha))
        if v >= beta:
            return v
        ply -= 1
        alpha = max(alpha, v)
    return v
