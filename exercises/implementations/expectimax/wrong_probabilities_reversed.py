# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: pairs the outcomes with the probabilities in reverse order
# first-divergence: expectimax-dice at B
# misconception: probabilities paired with the wrong outcomes
# explanation: Each outcome's value must be weighted by that outcome's own probability P(r). This
#   search pairs the outcomes with the probabilities in reverse order, so the first outcome gets the
#   last one's probability: with unequal probabilities the expectation is wrong.
# pseudocode: Section 5.5, EXPECTIMINIMAX, chance node: Σ_r P(r) EXPECTIMINIMAX(RESULT(s, r))
# hint: Check which probability each outcome's value is multiplied by. Try a roll whose outcomes are
#   not equally likely.
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
