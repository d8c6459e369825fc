# family: negamax
# algorithms: negamax
# expect: wrong
# bug: scores every leaf from MAX's point of view, not the point of view of the player to move there
# first-divergence: grundy-7-negamax at B1.1.1.1
"""Right for leaves where MAX is to move, wrong sign where MIN is."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action)))
    return v
