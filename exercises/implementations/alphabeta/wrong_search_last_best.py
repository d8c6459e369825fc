# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: the root keeps the last action tying the best (>=), and a pruned child's bound can tie
# first-divergence: none
# misconception: root prefers a later tie with a bound
# explanation: ALPHA-BETA-SEARCH returns the action whose value is v. A child pruned at the root
#   returns only a bound (at most the best value so far), not its value, so a child that merely ties
#   the best value may be worse. This root keeps the last action whose returned value ties the best,
#   so it can pick a pruned child whose true value is lower.
# pseudocode: Figure 5.7, ALPHA-BETA-SEARCH: return the action in ACTIONS(state) with value v
# hint: When a later child of the root returns the same number as the best so far, do you know its
#   true value, or only a bound on it? Which action should win the tie?
"""A pruned child returns only a bound (at most the best so far): a tie with it is no tie."""

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
        value = min_value(game.result(state, action), best_value, math.inf)
        if value >= best_value:
            best_action, best_value = action, value
    return best_action
