# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: the loop over outcomes starts at index 1, so the first outcome is left out
# first-divergence: expectimax-dice at B1
# misconception: first outcome left out
# explanation: A chance node's expectation sums over every outcome of the roll. This search starts
#   its loop one outcome too late, so the first outcome is never searched and its share of the
#   expectation is missing: the value is too small or too large by P(r) times that outcome's value.
# pseudocode: Section 5.5, EXPECTIMINIMAX, chance node: Σ_r P(r) EXPECTIMINIMAX(RESULT(s, r))
# hint: Count the outcomes your chance node looks at and compare with the number of outcomes of the
#   roll.
"""``outcomes[1:]``: an off-by-one in the chance loop."""

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
    for action, p in outcomes[1:]:
        v += p * value(game, game.result(state, action))
    return v
