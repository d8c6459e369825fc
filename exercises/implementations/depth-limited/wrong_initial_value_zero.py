# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: v starts at 0 instead of -inf / +inf
# first-divergence: tictactoe-depth2-heuristic at F
"""Nodes whose children are all negative (below MAX) or all positive (below MIN) are worth 0."""


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = 0
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = 0
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
