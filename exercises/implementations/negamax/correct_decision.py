# family: negamax
# algorithms: negamax
# expect: correct
"""MINIMAX-DECISION written with a nested negamax: the result is the root's best action."""

import math


def minmax_decision(state, game):
    """The action whose resulting state is worst for the opponent."""

    def negamax(state):
        if game.terminal_test(state):
            return game.utility(state, game.to_move(state))
        v = -math.inf
        for action in game.actions(state):
            v = max(v, -negamax(game.result(state, action)))
        return v

    best_action, best_value = None, -math.inf
    for action in game.actions(state):
        value = -negamax(game.result(state, action))
        if value > best_value:
            best_action, best_value = action, value
    return best_action
