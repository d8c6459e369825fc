# family: alphabeta
# algorithms: alphabeta
# expect: correct
# pruning: on-equality
# bug: under the strict rule it prunes on v == beta / v == alpha, where the search should go on
# first-divergence: connectfour-endgame-alphabeta at D2.3
"""The textbook's ALPHA-BETA-SEARCH: nested helpers, and the result is an action."""

import math


def alpha_beta_search(state, game):
    """The best action for the player to move, searching with alpha-beta pruning."""
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
        if value > best_value:
            best_action, best_value = action, value
    return best_action
