# family: expectimax
# algorithms: expectiminimax
# expect: wrong
# bug: MIN-VALUE takes the maximum, so MIN plays for MAX
# first-divergence: expectiminimax-rescaling/layers at B1
# misconception: MIN maximizes (expectiminimax)
# explanation: MIN moves to make MAX's value as small as possible: a MIN node is worth the minimum
#   of its children. This MIN-VALUE takes the maximum, so MIN plays for MAX. It only shows in
#   expectiminimax trees, where MIN moves.
# pseudocode: Section 5.5, EXPECTIMINIMAX, MIN node: min_a EXPECTIMINIMAX(RESULT(s, a))
# hint: At a MIN node, does the value go up or down as more children are seen?
"""Only shows where MIN moves: in expectiminimax trees."""

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
    v = -math.inf
    for action in game.actions(state):
        v = max(v, value(game, game.result(state, action)))
    return v


def exp_value(game, state):
    v = 0
    for action, p in game.chance_outcomes(state):
        v += p * value(game, game.result(state, action))
    return v
