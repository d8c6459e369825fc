# family: minimax
# algorithms: minimax
# expect: wrong
# bug: MINIMAX-DECISION picks the action with the lowest value, as if the root were MIN's turn
# first-divergence: aima-fig5.2-minimax at A
# misconception: root chooses the lowest value
# explanation: MINIMAX-DECISION is called when it is MAX's turn: it must return the action whose
#   MIN-VALUE is the highest (arg max). This search keeps the action with the lowest value, as if
#   the root were MIN's turn, so MAX picks the move that is best for its opponent even though every
#   value below the root is computed correctly.
# pseudocode: Figure 5.3, MINIMAX-DECISION: return arg max_{a ∈ ACTIONS(s)} MIN-VALUE(RESULT(state,
#   a))
# hint: Look at how the root compares the values of its actions: which player is choosing there, and
#   what does that player want?
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
