# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: searches a child with the window (-beta, -v), dropping the alpha the node was given
# first-divergence: none
"""The bound inherited from two plies up never reaches the grandchildren."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action), -beta, -v))
        if v >= beta:
            return v
    return v
