# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: searches the children and outcomes right to left; the value is right but the order is not
# first-divergence: expectimax-dice at B1
"""reversed(...) visits the last child first."""

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
    for action in reversed(game.actions(state)):
        v = max(v, value(game, game.result(state, action)))
    return v


def min_value(game, state):
    v = math.inf
    for action in reversed(game.actions(state)):
        v = min(v, value(game, game.result(state, action)))
    return v


def exp_value(game, state):
    v = 0
    for action, p in reversed(game.chance_outcomes(state)):
        v += p * value(game, game.result(state, action))
    return v
