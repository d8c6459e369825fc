# family: negamax
# algorithms: negamax
# expect: wrong
# bug: assigns each negated child value to v instead of the maximum: the last child wins
# first-divergence: grundy-7-negamax at B1
"""``v = -negamax(...)`` where ``v = max(v, -negamax(...))`` was meant."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = -negamax(game, game.result(state, action))
    return v
