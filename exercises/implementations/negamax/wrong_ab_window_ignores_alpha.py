# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: searches a child with the window (-beta, -v), dropping the alpha the node was given
# first-divergence: none
# misconception: window built from v, dropping alpha (negamax)
# explanation: A child must be searched with (−β, −α), where α is the best of this node's v and the
#   bound it was given from above. This search passes (−β, −v), so the bound the node inherited from
#   two plies up is forgotten until v passes it: grandchildren prune less than they could. Only some
#   trees show it.
# pseudocode: Figure 5.7 in negamax form (MAX-VALUE for the player to move), v ← MAX(v,
#   −NEGAMAX(RESULT(s, a), −β, −α))
# hint: Which bounds does a node know about: only the moves it has searched itself, or also
#   something from further up?
"""The bound inherited from two plies up never reaches the grandchildren."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action), -beta, -v))
        if v >= beta:
            return v
    return v
