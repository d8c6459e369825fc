# family: minimax
# algorithms: minimax
# expect: wrong
# bug: MINIMAX-DECISION picks the action with the lowest value, as if the root were MIN's turn
# first-divergence: aima-fig5.2-minimax at A
"""The helpers are right; the root chooses for the wrong player."""

import math


def minmax_decision(state, game):
    player = game.to_move(state)

    def max_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = -math.inf
        for action in game.actions(state):
            v = max(v, min_value(game.result(state, action)))
        return v

    def min_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = math.inf
        for action in game.actions(state):
            v = min(v, max_value(game.result(state, action)))
        return v

    best_action, best_value = None, math.inf
    for action in game.actions(state):
        value = min_value(game.result(state, action))
        if value < best_value:
            best_action, best_value = action, value
    return best_action
