# exercise: aima-fig5.2-minimax
# matches: none
# related: none
# style: MIN-VALUE has no terminal test, so a leaf below MAX is worth +inf; while loops
"""Minimax with while loops."""

INFINITY = float("inf")


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    actions = game.actions(state)
    i = 0
    value = -INFINITY
    while i < len(actions):
        value = max(value, min_value(game, game.result(state, actions[i])))
        i += 1
    return value


def min_value(game, state):
    actions = game.actions(state)
    i = 0
    value = INFINITY
    while i < len(actions):
        value = min(value, max_value(game, game.result(state, actions[i])))
        i += 1
    return value
