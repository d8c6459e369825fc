# family: negamax
# algorithms: negamax
# expect: wrong
# bug: takes the minimum of the negated child values instead of the maximum
# first-divergence: grundy-7-negamax at B1
"""Every player picks the move that is worst for itself."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = math.inf
    for action in game.actions(state):
        v = min(v, -negamax(game, game.result(state, action)))
    return v
