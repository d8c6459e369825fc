# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: divides the probability-weighted sum by the number of outcomes again
# first-divergence: expectimax-dice at B
# misconception: expectation divided by the number of outcomes
# explanation: The expected value is Σ P(r) · value(r): the probabilities already sum to 1, so the
#   weighted sum is the average. This search divides it once more by the number of outcomes, which
#   shrinks every chance node's value towards 0 and makes gambles look worse (or better, for
#   negative values) than they are.
# pseudocode: Section 5.5, EXPECTIMINIMAX, chance node: Σ_r P(r) EXPECTIMINIMAX(RESULT(s, r))
# hint: What do the probabilities of a chance node's outcomes add up to? Is anything left to divide
#   by?
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
