# family: minimax
# algorithms: minimax
# expect: correct
"""Minimax over ``game.successors``, with the built-in max and min."""


def max_value(game, state):
    """The minimax value of a state where MAX is to move."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return max(min_value(game, child) for _, child in game.successors(state))


def min_value(game, state):
    """The minimax value of a state where MIN is to move."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return min(max_value(game, child) for _, child in game.successors(state))
