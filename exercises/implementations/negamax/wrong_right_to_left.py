# family: negamax
# algorithms: negamax
# expect: wrong
# bug: searches the children right to left; the value is right but the order of the search is not
# first-divergence: grundy-7-negamax at B1.1.1.1
# misconception: moves searched right to left (negamax)
# explanation: The search takes the actions from last to first instead of in the order
#   ACTIONS(state) gives them. The value is right, but the order in which nodes are visited is not
#   the one the exercise expects (and with alpha-beta the order decides what is pruned).
# pseudocode: Figure 5.3 in negamax form (MAX-VALUE for the player to move), for each a in
#   ACTIONS(state) do
# hint: In which order does your loop go through the actions? Compare your first leaf with the
#   leftmost leaf.
"""reversed(game.actions(state)) visits the last child first."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in reversed(game.actions(state)):
        v = max(v, -negamax(game, game.result(state, action)))
    return v
