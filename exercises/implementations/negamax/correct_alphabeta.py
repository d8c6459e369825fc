# family: negamax
# algorithms: negamax-alphabeta
# expect: correct
# pruning: on-equality
# bug: under the strict rule it prunes on v == beta, where the search should go on
# first-divergence: aima-fig5.2-negamax-alphabeta/tie at C2
"""Negamax with alpha-beta pruning (fail-soft): the child's window is (-beta, -alpha)."""

import math


def negamax(game, state, alpha, beta):
    """The value of ``state`` for the player to move, exact when strictly inside (alpha, beta)."""
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action), -beta, -alpha))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v
