# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: calls value() a second time on a child that improves v, searching its subtree twice
# first-divergence: expectimax-dice at B1
# misconception: child's subtree searched twice (expectimax)
# explanation: Each child is searched once and its value folded into v. At MAX nodes this search
#   calls the search once to compare a child with v and again to take its value, so every child that
#   improves v has its subtree (and every chance node in it) searched twice. The value is right at a
#   much higher cost.
# pseudocode: Section 5.5, EXPECTIMINIMAX, MAX node: max_a EXPECTIMINIMAX(RESULT(s, a))
# hint: Count how many times your search is called on one child of a MAX node. Could you keep the
#   value after the first call?
"""``if value(...) > v: v = value(...)`` gets the value right at twice the cost."""

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
        child = game.result(state, action)
        if value(game, child) > v:
            v = value(game, child)
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
