# family: minimax
# algorithms: minimax
# expect: wrong
# bug: scores a leaf for the player to move there (negamax's rule): wrong below MAX
# first-divergence: fantan-1-3-minimax at B1.2
# misconception: leaf scored for the player to move
# explanation: In minimax both MAX-VALUE and MIN-VALUE work with values for MAX: UTILITY(state) is
#   always MAX's payoff. This search asks for the payoff of the player to move at the leaf, which is
#   negamax's rule. Below a MIN node the player to move is MAX and the value happens to be right,
#   but a leaf below a MAX node is scored for MIN, with the wrong sign.
# pseudocode: Figure 5.3, MIN-VALUE: if TERMINAL-TEST(state) then return UTILITY(state)
# hint: Does the player you score a leaf for change with the leaf's depth? Try a tree where a leaf
#   hangs directly below a MAX node.
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
