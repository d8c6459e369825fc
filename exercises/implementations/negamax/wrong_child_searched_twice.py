# family: negamax
# algorithms: negamax
# expect: wrong
# bug: calls negamax a second time on a child that improves v, searching its subtree twice
# first-divergence: grundy-7-negamax at B1.1.1.1
"""``if -negamax(...) > v: v = -negamax(...)`` gets the value right at twice the cost."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if -negamax(game, child) > v:
            v = -negamax(game, child)
    return v
