# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: returns a value worked out by hand (1) without searching
# first-divergence: tictactoe-depth2-heuristic at B1
"""The evaluation of X in the centre, O in a corner: the textbook's example, not a search."""


def max_value(game, state, depth):
    return 1


def min_value(game, state, depth):
    return 1
