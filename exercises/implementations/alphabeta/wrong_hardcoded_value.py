# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: returns Figure 5.2's answer (3) without searching
# first-divergence: aima-fig5.2-alphabeta at B1
# misconception: answer written in, no search
# explanation: The functions return the value of Figure 5.2's tree (3), worked out by hand, instead
#   of searching: they never apply TERMINAL-TEST, ACTIONS, RESULT or UTILITY and never use α or β.
#   On any other tree the value is wrong, and no node below the root is visited.
# pseudocode: Figure 5.7, MAX-VALUE: for each a in ACTIONS(state) do v ← MAX(v, MIN-VALUE(RESULT(s,
#   a), α, β))
# hint: Your functions must work on any game tree, not only the one in the figure: where do they
#   look at the state they are given?
"""A value worked out by hand for the textbook's tree."""


def max_value(game, state, alpha, beta):
    return 3


def min_value(game, state, alpha, beta):
    return 3
