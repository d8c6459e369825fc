# family: negamax
# algorithms: negamax
# expect: wrong
# bug: searches the children right to left; the value is right but the order of the search is not
# first-divergence: grundy-7-negamax at B1.1.1.1
"""reversed(game.actions(state)) visits the last child first."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in reversed(game.actions(state)):
        v = max(v, -negamax(game, game.result(state, action)))
    return v
