# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: pairs the outcomes with the probabilities in reverse order
# first-divergence: expectimax-dice at B
"""The first outcome gets the last outcome's probability."""

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
    outcomes = game.chance_outcomes(state)
    probabilities = [p for _, p in reversed(outcomes)]
    v = 0
    for (action, _), p in zip(outcomes, probabilities, strict=True):
        v += p * value(game, game.result(state, action))
    return v
