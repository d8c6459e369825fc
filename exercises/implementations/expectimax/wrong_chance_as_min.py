# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: a chance node takes its worst outcome, as if an opponent chose the dice (minimax)
# first-divergence: expectimax-dice at B
# misconception: chance node treated as MIN
# explanation: Nobody chooses at a chance node: the dice decide, so its value is the expectation Σ
#   P(r) · value over the outcomes. This search takes the worst outcome, as if an opponent picked
#   the roll (plain minimax): it is too pessimistic, and MAX will refuse gambles that are good on
#   average.
# pseudocode: Section 5.5, EXPECTIMINIMAX, chance node: Σ_r P(r) EXPECTIMINIMAX(RESULT(s, r))
# hint: Who decides what happens at a chance node, and does it play against MAX?
"""Pessimism: chance is treated as a MIN node."""

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
    v = math.inf
    for action in game.actions(state):
        v = min(v, value(game, game.result(state, action)))
    return v
