# family: negamax
# algorithms: negamax
# expect: wrong
# bug: the root picks the child with the highest negamax value, which is the opponent's
# first-divergence: none
"""The helper is right; the root forgets that a child's value belongs to the opponent."""

import math


def minmax_decision(state, game):
    def negamax(state):
        if game.terminal_test(state):
            return game.utility(state, game.to_move(state))
        v = -math.inf
        for action in game.actions(state):
            v = max(v, -negamax(game.result(state, action)))
        return v

    best_action, best_value = None, -math.inf
    for action in game.actions(state):
        value = negamax(game.result(state, action))
        if value > best_value:
            best_action, best_value = action, value
    return best_action
