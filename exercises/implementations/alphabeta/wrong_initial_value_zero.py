# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: v starts at 0 instead of -inf / +inf
# first-divergence: aima-fig5.2-alphabeta at B
"""Nodes whose children are all negative (below MAX) or all positive (below MIN) are worth 0."""


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = 0
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = 0
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
