# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: the root searches every child with alpha = -inf, so its best value never prunes
# first-divergence: aima-fig5.2-alphabeta at C2
# misconception: root's best value not passed down as alpha
# explanation: At the root, MAX's best value so far is α for the children still to be searched. This
#   root calls MIN-VALUE on every child with the full window (−∞, +∞), so the children never learn
#   what MAX already has and never prune: the decision is right, but the root's children are
#   searched as in plain minimax.
# pseudocode: Figure 5.7, ALPHA-BETA-SEARCH: v ← MAX-VALUE(state, −∞, +∞)
# hint: What does the root know after its first child, and how would its other children find out?
"""The root's loop does not pass the best value so far down as alpha."""

import math


def alpha_beta_search(state, game):
    player = game.to_move(state)

    def max_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = -math.inf
        for action in game.actions(state):
            v = max(v, min_value(game.result(state, action), alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = math.inf
        for action in game.actions(state):
            v = min(v, max_value(game.result(state, action), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_action, best_value = None, -math.inf
    for action in game.actions(state):
        value = min_value(game.result(state, action), -math.inf, math.inf)
        if value > best_value:
            best_action, best_value = action, value
    return best_action
