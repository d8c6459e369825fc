# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: a chance node is worth the sum of its outcomes' values, the probabilities left out
# first-divergence: expectimax-dice at B
"""``v += value(...)`` where ``v += p * value(...)`` was meant."""

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
    v = 0
    for action, _ in game.chance_outcomes(state):
        v += value(game, game.result(state, action))
    return v
