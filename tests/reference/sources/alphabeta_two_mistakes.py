"""Alpha-beta with two of the library's mistakes: v starts at 0, and alpha is never raised."""


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = 0
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
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
