# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: MAX-VALUE starts v at 0 instead of -inf, so a choice among losing gambles is worth 0
# first-divergence: none
# misconception: MAX's v starts at 0, not −∞ (expectimax)
# explanation: MAX-VALUE must start with v ← −∞ so that the first move's value always replaces it.
#   Starting at 0 acts as if MAX had a move worth 0 in hand: when every gamble available has a
#   negative expected value, the node is reported as worth 0, a value no move reaches. Trees with
#   positive expectations hide it.
# pseudocode: Section 5.5, EXPECTIMINIMAX, MAX node: max_a (v starts at −∞ as in Figure 5.3's
#   MAX-VALUE)
# hint: What does a MAX node report when every move has a negative expected value?
"""v = 0 looks harmless while every expectation is positive."""

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
    v = 0
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
