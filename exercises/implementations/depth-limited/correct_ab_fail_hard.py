# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: correct
# pruning: on-equality
# bug: under the strict rule it prunes on alpha == beta, where the search should go on
# first-divergence: tictactoe-depth2-alphabeta at D2
"""Depth-limited alpha-beta in the fail-hard style: the result is clamped to [alpha, beta]."""


def max_value(game, state, alpha, beta, depth):
    """alpha raised to the state's value, or beta when the value is at least beta."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    for action in game.actions(state):
        alpha = max(alpha, min_value(game, game.result(state, action), alpha, beta, depth - 1))
        if alpha >= beta:
            return beta
    return alpha


def min_value(game, state, alpha, beta, depth):
    """beta lowered to the state's value, or alpha when the value is at most alpha."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    for action in game.actions(state):
        beta = min(beta, max_value(game, game.result(state, action), alpha, beta, depth - 1))
        if beta <= alpha:
            return alpha
    return beta
