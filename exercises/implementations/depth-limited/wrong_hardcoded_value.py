# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: returns a value worked out by hand (1) without searching
# first-divergence: tictactoe-depth2-heuristic at B1
# misconception: answer written in, no search (depth-limited)
# explanation: The functions return a value worked out by hand (the textbook's evaluation of one
#   tic-tac-toe position) instead of searching: they never apply the cut-off, EVAL, ACTIONS or
#   RESULT. On any other position the value is wrong, and no position below the root is looked at.
# pseudocode: Section 5.4, H-MINIMAX (Figure 5.3 with the cut-off), MAX-VALUE: v ← MAX(v,
#   MIN-VALUE(RESULT(s, a), depth − 1))
# hint: Your functions must work from any position: where do they look at the state they are given?
"""The evaluation of X in the centre, O in a corner: the textbook's example, not a search."""


def max_value(game, state, depth):
    return 1


def min_value(game, state, depth):
    return 1
