# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: a chance node is worth its most likely outcome only (the others are never searched)
# first-divergence: expectimax-dice at B
# misconception: only the most likely outcome counted
# explanation: A chance node is worth the expectation over all its outcomes, each weighted by its
#   probability. This search assumes the most likely outcome happens and values the node by that one
#   outcome, never searching the others: rare but large wins or losses are ignored.
# pseudocode: Section 5.5, EXPECTIMINIMAX, chance node: Σ_r P(r) EXPECTIMINIMAX(RESULT(s, r))
# hint: Which outcomes of a roll can happen, and which of them does your chance node look at?
"""Assumes the most likely roll happens."""

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
    action, _ = max(game.chance_outcomes(state), key=lambda outcome: outcome[1])
    return value(game, game.result(state, action))
