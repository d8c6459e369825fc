# family: depth-limited
# algorithms: depth-limited-minimax
# expect: correct
"""Depth-limited minimax with a cut-off test and ``game.successors``; depth counts down."""


def cutoff_test(game, state, depth):
    """True when the search stops at ``state``: the game is over or no plies are left."""
    return game.terminal_test(state) or depth == 0


def score(game, state):
    """A finished game's utility for MAX, otherwise the evaluation."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return game.eval(state)


def max_value(game, state, depth):
    if cutoff_test(game, state, depth):
        return score(game, state)
    return max(min_value(game, child, depth - 1) for _, child in game.successors(state))


def min_value(game, state, depth):
    if cutoff_test(game, state, depth):
        return score(game, state)
    return min(max_value(game, child, depth - 1) for _, child in game.successors(state))
