# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: searches the children and outcomes right to left; the value is right but the order is not
# first-divergence: expectimax-dice at B1
# misconception: children and outcomes searched right to left
# explanation: The search takes actions and outcomes from last to first instead of in the order the
#   game gives them. Expected values do not depend on the order, so the value is right, but nodes
#   are visited in another order than the exercise expects.
# pseudocode: Section 5.5, EXPECTIMINIMAX, MAX node: max_a EXPECTIMINIMAX(RESULT(s, a))
# hint: In which order do your loops go through the moves and the outcomes? Compare your first leaf
#   with the leftmost one.
"""reversed(...) visits the last child first."""

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
    for action in reversed(game.actions(state)):
        v = max(v, value(game, game.result(state, action)))
    return v


def min_value(game, state):
    v = math.inf
    for action in reversed(game.actions(state)):
        v = min(v, value(game, game.result(state, action)))
    return v


def exp_value(game, state):
    v = 0
    for action, p in reversed(game.chance_outcomes(state)):
        v += p * value(game, game.result(state, action))
    return v
