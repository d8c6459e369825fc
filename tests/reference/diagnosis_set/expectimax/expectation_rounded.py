# exercise: expectimax-dice
# matches: none
# related: none
# style: a chance node's expectation is rounded to a whole number; plain functions
"""Expectimax; payoffs are whole numbers, so expectations are rounded."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, exp_value(game, game.result(state, action)))
    return v


def exp_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    total = 0
    for action, p in game.chance_outcomes(state):
        child = game.result(state, action)
        if game.to_move(child) == "MAX":
            total += p * max_value(game, child)
        else:
            total += p * exp_value(game, child)
    return round(total)
