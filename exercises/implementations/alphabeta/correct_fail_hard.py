# family: alphabeta
# algorithms: alphabeta
# expect: correct
# pruning: on-equality
# bug: under the strict rule it prunes on alpha == beta, where the search should go on
# first-divergence: connectfour-endgame-alphabeta at D2.3
"""Alpha-beta in the fail-hard style: a node's result is clamped to its window [alpha, beta]."""


def max_value(game, state, alpha, beta):
    """alpha raised to the state's value, or beta when the state is worth beta or more."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    for action in game.actions(state):
        alpha = max(alpha, min_value(game, game.result(state, action), alpha, beta))
        if alpha >= beta:
            return beta
    return alpha


def min_value(game, state, alpha, beta):
    """beta lowered to the state's value, or alpha when the state is worth alpha or less."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    for action in game.actions(state):
        beta = min(beta, max_value(game, game.result(state, action), alpha, beta))
        if beta <= alpha:
            return alpha
    return beta
