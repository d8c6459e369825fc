# family: negamax
# algorithms: negamax
# expect: wrong
# bug: backs up the children's values without negating them
# first-divergence: grundy-7-negamax at B1.1.1
"""``max(v, negamax(...))`` where ``max(v, -negamax(...))`` was meant."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, negamax(game, game.result(state, action)))
    return v
