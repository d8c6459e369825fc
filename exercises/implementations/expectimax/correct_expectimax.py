# family: expectimax
# algorithms: expectimax
# expect: correct
"""Expectimax: MAX chooses, chance nodes average their outcomes by probability."""

import math


def value(game, state):
    """The expectimax value of any state: dispatch on whose turn it is."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    player = game.to_move(state)
    if player == "MAX":
        return max_value(game, state)
    return exp_value(game, state)


def max_value(game, state):
    """The value of a state where MAX chooses: the best child."""
    v = -math.inf
    for action in game.actions(state):
        v = max(v, value(game, game.result(state, action)))
    return v


def exp_value(game, state):
    """The value of a chance state: the probability-weighted sum of its outcomes."""
    v = 0
    for action, p in game.chance_outcomes(state):
        v += p * value(game, game.result(state, action))
    return v
