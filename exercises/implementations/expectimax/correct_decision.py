# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: correct
"""The textbook's EXPECTIMINIMAX as a decision: nested helpers, and the result is an action."""

import math


def expectiminimax(state, game):
    """The action with the best expected value for the player to move (MAX or MIN)."""
    sign = 1 if game.to_move(state) == "MAX" else -1

    def value(state):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        player = game.to_move(state)
        if player == "MAX":
            return max(value(game.result(state, a)) for a in game.actions(state))
        if player == "MIN":
            return min(value(game.result(state, a)) for a in game.actions(state))
        return sum(p * value(game.result(state, a)) for a, p in game.chance_outcomes(state))

    best_action, best_value = None, -math.inf
    for action in game.actions(state):
        child_value = sign * value(game.result(state, action))
        if child_value > best_value:
            best_action, best_value = action, child_value
    return best_action
