# exercise: expectiminimax-rescaling
# matches: none
# related: none
# style: the probabilities are read at the first chance node and reused at every other one
"""Expectiminimax. The dice are the same every roll, so their odds are read once."""

import math

odds = None


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
    global odds
    outcomes = game.chance_outcomes(state)
    if odds is None:
        odds = [p for _, p in outcomes]
    v = 0
    for (action, _), p in zip(outcomes, odds, strict=False):
        v += p * value(game, game.result(state, action))
    return v
