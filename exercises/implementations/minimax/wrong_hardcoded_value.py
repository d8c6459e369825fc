# family: minimax
# algorithms: minimax
# expect: wrong
# bug: returns Figure 5.2's answer (3) without searching
# first-divergence: aima-fig5.2-minimax at B1
# misconception: answer written in, no search
# explanation: The functions return a number worked out by hand for the textbook's tree (Figure
#   5.2's 3) instead of searching: they never apply TERMINAL-TEST, ACTIONS, RESULT or UTILITY. On
#   any other tree the value is wrong, and no node below the root is ever visited, so nothing of
#   minimax is computed.
# pseudocode: Figure 5.3, MAX-VALUE: for each a in ACTIONS(state) do v ← MAX(v, MIN-VALUE(RESULT(s,
#   a)))
# hint: Your functions must work on any game tree, not only the one in the figure: where do they
#   look at the state they are given?
"""A value worked out by hand for the textbook's tree."""


def max_value(game, state):
    return 3


def min_value(game, state):
    return 3
