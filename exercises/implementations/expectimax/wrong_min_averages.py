# family: expectimax
# algorithms: expectiminimax
# expect: wrong
# bug: MIN-VALUE averages its children, as if MIN moved at random, instead of taking the minimum
# first-divergence: expectiminimax-rescaling/layers at B1
# misconception: MIN treated as a chance node
# explanation: In expectiminimax MIN is an opponent who chooses the move worst for MAX, not a random
#   player: a MIN node is worth the minimum of its children. This search averages them, as if MIN
#   moved at random (expectimax's model of the opponent), so MIN's nodes are worth more than they
#   are.
# pseudocode: Section 5.5, EXPECTIMINIMAX, MIN node: min_a EXPECTIMINIMAX(RESULT(s, a))
# hint: Does MIN choose its move, or is it rolled? Compare your MIN node with your chance node.
"""MIN taken for a uniform chance node: the opponent of expectimax, not of expectiminimax."""

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
    actions = game.actions(state)
    total = 0
    for action in actions:
        total += value(game, game.result(state, action))
    return total / len(actions)


def exp_value(game, state):
    v = 0
    for action, p in game.chance_outcomes(state):
        v += p * value(game, game.result(state, action))
    return v
