# family: negamax
# algorithms: negamax
# expect: wrong
# bug: "return v" is indented into the loop, so every node returns after its first child
# first-divergence: grundy-7-negamax at B
# misconception: returns after the first child (negamax)
# explanation: A node must look at every action in ACTIONS(state) before returning v. Here the
#   return is inside the loop, so each node returns after its first move: only the leftmost path is
#   searched and its leaf decides the value.
# pseudocode: Figure 5.3 in negamax form (MAX-VALUE for the player to move), for each a in
#   ACTIONS(state) do … return v
# hint: How many children does a node look at before it returns? Check where the return sits
#   relative to the loop.
"""Only the leftmost path is ever searched."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action)))
        return v
    return v
