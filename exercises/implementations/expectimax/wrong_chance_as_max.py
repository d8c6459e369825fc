# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: a chance node takes its best outcome, as if MAX chose the dice
# first-divergence: expectimax-dice at B
# misconception: chance node treated as MAX
# explanation: Nobody chooses at a chance node: the dice decide, so its value is the expectation Σ
#   P(r) · value over the outcomes. This search takes the best outcome, as if MAX could pick the
#   roll: it is too optimistic, and MAX will take gambles whose average is poor because one outcome
#   is good.
# pseudocode: Section 5.5, EXPECTIMINIMAX, chance node: Σ_r P(r) EXPECTIMINIMAX(RESULT(s, r))
# hint: Who decides what happens at a chance node, and can that be counted on to favour MAX?
"""Optimism: chance is treated as another MAX node."""

import math


def value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    player = game.to_move(state)
    if player == "MAX":
        return max_value(game, state)
    if player == "MIN":
        return min_value(game, state)
    return exp_value(game, state)


def max_value(game, state):
    v = -math.inf
    for action in game.actions(state):
        v = max(v, value(game, game.result(state, action)))
    return v


def min_value(game, state):
    v = math.inf
    for action in game.actions(state):
        v = min(v, value(game, game.result(state, action)))
    return v


def exp_value(game, state):
    v = -math.inf
    for action in game.actions(state):
        v = max(v, value(game, game.result(state, action)))
    return v
