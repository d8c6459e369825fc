# exercise: expectimax-dice
# matches: expectimax/wrong_ignores_probabilities
# related: none
# style: a chance node sums its outcomes, probabilities left out; recursion through _value
"""Expectimax through one private helper."""

import math


def max_value(game, state):
    return _value(game, state)


def exp_value(game, state):
    return _value(game, state)


def _value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if game.to_move(state) == "MAX":
        v = -math.inf
        for action in game.actions(state):
            v = max(v, _value(game, game.result(state, action)))
        return v
    v = 0
    for action, _p in game.chance_outcomes(state):
        v += _value(game, game.result(state, action))
    return v
