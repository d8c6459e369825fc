# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: a chance node stops at an outcome no better than MAX's best so far, as in alpha-beta
# first-divergence: expectimax-dice at C
# misconception: chance node pruned like a MIN node
# explanation: Alpha-beta may stop at a MIN node once one reply is no better for MAX than MAX's best
#   so far, because MIN would choose it. A chance node chooses nothing: every outcome still counts
#   in the expectation, and a bad outcome can be made up by the others. This search stops a chance
#   node at the first outcome no better than MAX's best, and returns a partial sum.
# pseudocode: Section 5.5, EXPECTIMINIMAX, chance node: Σ_r P(r) EXPECTIMINIMAX(RESULT(s, r))
# hint: At a chance node, can one bad outcome decide the node's value? What do the outcomes not
#   searched contribute?
"""Pruning a chance node on one outcome is wrong: the others still count."""

import math


def value(game, state, best=-math.inf):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    player = game.to_move(state)
    if player == "MAX":
        return max_value(game, state)
    if player == "MIN":
        return min_value(game, state)
    return exp_value(game, state, best)


def max_value(game, state):
    v = -math.inf
    for action in game.actions(state):
        v = max(v, value(game, game.result(state, action), v))
    return v


def min_value(game, state):
    v = math.inf
    for action in game.actions(state):
        v = min(v, value(game, game.result(state, action)))
    return v


def exp_value(game, state, best=-math.inf):
    v = 0
    for action, p in game.chance_outcomes(state):
        outcome = value(game, game.result(state, action))
        v += p * outcome
        if outcome <= best:
            return v
    return v
