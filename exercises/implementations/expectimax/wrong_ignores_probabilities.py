# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: a chance node is worth the sum of its outcomes' values, the probabilities left out
# first-divergence: expectimax-dice at B
# misconception: outcomes summed, probabilities left out
# explanation: A chance node is worth Σ P(r) · value(r): each outcome counts as much as it is
#   likely. This search adds the outcomes' values without their probabilities, so a node with more
#   outcomes is worth more and the scale of every chance node is off.
# pseudocode: Section 5.5, EXPECTIMINIMAX, chance node: Σ_r P(r) EXPECTIMINIMAX(RESULT(s, r))
# hint: In the sum over a chance node's outcomes, what tells the search how likely each outcome is?
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
