# exercise: expectiminimax-rescaling
# matches: none
# related: none
# style: a global "last mover" decides who moves after a roll; set by each search, never restored
"""Expectiminimax: after the dice, the player who did not move last moves."""

import math

last_mover = "MIN"


def after_roll(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if last_mover == "MAX":
        return min_value(game, state)
    return max_value(game, state)


def max_value(game, state):
    global last_mover
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    last_mover = "MAX"
    v = -math.inf
    for action in game.actions(state):
        v = max(v, exp_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    global last_mover
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    last_mover = "MIN"
    v = math.inf
    for action in game.actions(state):
        v = min(v, exp_value(game, game.result(state, action)))
    return v


def exp_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = 0
    for action, p in game.chance_outcomes(state):
        v += p * after_roll(game, game.result(state, action))
    return v
