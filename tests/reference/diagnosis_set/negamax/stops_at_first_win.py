# exercise: grundy-7-negamax
# matches: none
# related: none
# style: stops at the first child whose negated value is positive (a win); successors
"""Negamax: once a winning move is found, the others do not matter."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    value = -math.inf
    for _move, child in game.successors(state):
        value = max(value, -negamax(game, child))
        if value > 0:
            break
    return value
