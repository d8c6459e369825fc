# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: calls value() a second time on a child that improves v, searching its subtree twice
# first-divergence: expectimax-dice at B1
"""``if value(...) > v: v = value(...)`` gets the value right at twice the cost."""

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
        child = game.result(state, action)
        if value(game, child) > v:
            v = value(game, child)
    return v


def min_value(game, state):
    v = math.inf
    for action in game.actions(state):
        v = min(v, value(game, game.result(state, action)))
    return v


def exp_value(game, state):
    v = 0
    for action, p in game.chance_outcomes(state):
        v += p * value(game, game.result(state, action))
    return v
