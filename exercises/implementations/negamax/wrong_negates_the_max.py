# family: negamax
# algorithms: negamax
# expect: wrong
# bug: negates the maximum of the child values instead of taking the maximum of their negations
# first-divergence: grundy-7-negamax at B1
"""``-max(values)`` is ``min(-values)``, not ``max(-values)``."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, negamax(game, game.result(state, action)))
    return -v
