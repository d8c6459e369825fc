# family: expectimax
# algorithms: expectiminimax
# expect: wrong
# bug: searches every outcome of a roll with MAX-VALUE (as in expectimax): MIN plays for MAX
# first-divergence: expectiminimax-rescaling/layers at B1
# misconception: after a roll MAX always moves
# explanation: In expectiminimax the roll is followed by the move of the player whose turn it is,
#   MAX or MIN, so each outcome must be valued by the node for that player. This search values every
#   outcome with MAX-VALUE, as in expectimax where only MAX moves: where MIN moves after the dice,
#   MIN plays for MAX and the value is too high.
# pseudocode: Section 5.5, EXPECTIMINIMAX, chance node: Σ_r P(r) EXPECTIMINIMAX(RESULT(s, r))
# hint: After the dice are rolled, whose turn is it? Does your chance node ask?
"""Expectimax code reused for expectiminimax: after chance, it assumes MAX moves."""

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
    for action, p in game.chance_outcomes(state):
        v += p * max_value_or_utility(game, game.result(state, action))
    return v


def max_value_or_utility(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return max_value(game, state)
