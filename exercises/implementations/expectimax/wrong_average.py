# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: a chance node is worth the plain average of its outcomes, not the probability-weighted sum
# first-divergence: expectimax-dice at B
# misconception: chance node averaged, probabilities ignored
# explanation: A chance node is worth the expected value of its outcomes: each outcome's value
#   weighted by its probability P(r), then summed. This search takes the plain average, which is the
#   same only when every outcome is equally likely; with loaded dice or a two-dice sum, rare
#   outcomes count as much as common ones and the expectation is wrong.
# pseudocode: Section 5.5, EXPECTIMINIMAX, chance node: Σ_r P(r) EXPECTIMINIMAX(RESULT(s, r))
# hint: Would your chance node give the same value if one outcome were much more likely than the
#   others?
"""Right only when every outcome is equally likely."""

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
    values = [value(game, game.result(state, action)) for action in game.actions(state)]
    return sum(values) / len(values)
