# family: minimax
# algorithms: minimax
# expect: wrong
# bug: scores a leaf for the player to move there (negamax's rule): wrong below MAX
# first-divergence: fantan-1-3-minimax at B1.2
"""Right whenever leaves hang below MIN nodes (as on Figure 5.2), wrong below MAX nodes."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action)))
    return v
