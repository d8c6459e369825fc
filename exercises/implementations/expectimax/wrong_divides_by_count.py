# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: divides the probability-weighted sum by the number of outcomes again
# first-divergence: expectimax-dice at B
"""The probabilities already sum to 1; dividing once more shrinks every expectation."""

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
    v = 0
    for action, p in outcomes:
        v += p * value(game, game.result(state, action))
    return v / len(outcomes)
