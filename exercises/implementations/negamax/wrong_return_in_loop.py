# family: negamax
# algorithms: negamax
# expect: wrong
# bug: "return v" is indented into the loop, so every node returns after its first child
# first-divergence: grundy-7-negamax at B
"""Only the leftmost path is ever searched."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action)))
        return v
    return v
