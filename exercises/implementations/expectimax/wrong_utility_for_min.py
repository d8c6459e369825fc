# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: asks for the utility from MIN's point of view, so every leaf has the wrong sign
# first-divergence: expectimax-dice at B
# misconception: utility from MIN's point of view (expectimax)
# explanation: Expectimax values every state for MAX: UTILITY(state) is MAX's payoff, MAX nodes
#   maximize it and chance nodes average it. This search asks for MIN's utility, the negation, so
#   every leaf has the wrong sign and MAX chooses the gambles that are worst for it.
# pseudocode: Section 5.5, EXPECTIMINIMAX, terminal: UTILITY(s) if TERMINAL-TEST(s)
# hint: For which player do you ask the utility of a leaf, and for which player does MAX-VALUE
#   choose?
"""game.utility(state, "MIN") is the negation of what expectimax backs up."""

import math


def value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MIN")
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
    for action, p in game.chance_outcomes(state):
        v += p * value(game, game.result(state, action))
    return v
