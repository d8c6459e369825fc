# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: passes (alpha, beta) to the child unchanged instead of (-beta, -alpha)
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at C2
# misconception: window passed down unchanged (negamax)
# explanation: In negamax the child's values are in the opponent's terms, so its window must be this
#   node's window seen from the other side: (−β, −α). This search passes (α, β) unchanged, bounds in
#   the wrong player's terms, so children prune where they must not and fail to prune where they
#   could.
# pseudocode: Figure 5.7 in negamax form (MAX-VALUE for the player to move), v ← MAX(v,
#   −NEGAMAX(RESULT(s, a), −β, −α))
# hint: The child's values get negated on the way back; what must happen to the bounds on the way
#   down?
"""The child's window is in the wrong player's terms."""

import math


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v
