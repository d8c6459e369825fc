"""Alpha-beta that prunes only at MAX nodes (no known mistake of the library)."""


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -float("inf")
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = float("inf")
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        beta = min(beta, v)
    return v
