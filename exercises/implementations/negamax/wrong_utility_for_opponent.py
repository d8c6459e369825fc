# family: negamax
# algorithms: negamax
# expect: wrong
# bug: scores a leaf for the player who just moved instead of the player to move there
# first-divergence: grundy-7-negamax at B1.1.1.1
"""The sign of every leaf is flipped."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MIN" if game.to_move(state) == "MAX" else "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action)))
    return v
