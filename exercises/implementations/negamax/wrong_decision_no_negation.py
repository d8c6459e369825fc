# family: negamax
# algorithms: negamax
# expect: wrong
# bug: the root picks the child with the highest negamax value, which is the opponent's
# first-divergence: none
# misconception: root picks the opponent's best move
# explanation: MINIMAX-DECISION picks the action whose resulting state is best for the player at the
#   root. In negamax the value of that state is for the opponent, who is to move there, so the root
#   must choose the child with the lowest negamax value (the highest negation). This root picks the
#   highest, the move that is best for the opponent.
# pseudocode: Figure 5.3 in negamax form, MINIMAX-DECISION: arg max_{a ∈ ACTIONS(s)}
#   −NEGAMAX(RESULT(state, a))
# hint: Who is to move in the states right after the root's move, and so whose value does your
#   helper return for them?
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
