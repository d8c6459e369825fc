# family: negamax
# algorithms: negamax
# expect: correct
"""Negamax: one function for both players; a value is for the player to move."""

import math


def negamax(game, state):
    """The value of ``state`` for the player to move there: the best negated child value."""
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action)))
    return v
