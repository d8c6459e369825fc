# family: negamax
# algorithms: negamax-alphabeta
# expect: correct
# pruning: on-equality
# bug: under the strict rule it prunes on v == beta, where the search should go on
# first-divergence: aima-fig5.2-negamax-alphabeta/tie at C2
"""ALPHA-BETA-SEARCH written with a nested negamax: the result is the root's best action."""

import math


def alpha_beta_search(state, game):
    """The best action for the player to move, searching with alpha-beta pruning."""

    def negamax(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, game.to_move(state))
        v = -math.inf
        for action in game.actions(state):
            v = max(v, -negamax(game.result(state, action), -beta, -alpha))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    best_action, best_value = None, -math.inf
    for action in game.actions(state):
        value = -negamax(game.result(state, action), -math.inf, -best_value)
        if value > best_value:
            best_action, best_value = action, value
    return best_action
