# family: minimax
# algorithms: minimax
# expect: wrong
# bug: MINIMAX-DECISION scores the root's children with MAX-VALUE, as if MAX moved twice
# first-divergence: aima-fig5.2-minimax at A
# misconception: root's children searched as MAX nodes
# explanation: MINIMAX-DECISION is MAX's choice at the root, so the states after MAX's move are
#   MIN's turn and must be valued with MIN-VALUE. This search values them with MAX-VALUE, as if MAX
#   moved twice in a row: every level below the root is searched for the wrong player, and the
#   action chosen can be one a real opponent would punish.
# pseudocode: Figure 5.3, MINIMAX-DECISION: return arg max_{a ∈ ACTIONS(s)} MIN-VALUE(RESULT(state,
#   a))
# hint: Whose turn is it in the states right after the root's move, and which of your two helpers
#   speaks for that player?
"""The root's children are MIN's turn, but they are searched as MAX nodes."""

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

    best_action, best_value = None, -math.inf
    for action in game.actions(state):
        value = max_value(game.result(state, action))
        if value > best_value:
            best_action, best_value = action, value
    return best_action
