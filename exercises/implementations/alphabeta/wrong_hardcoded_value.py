# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: returns Figure 5.2's answer (3) without searching
# first-divergence: aima-fig5.2-alphabeta at B1
"""A value worked out by hand for the textbook's tree."""


def max_value(game, state, alpha, beta):
    return 3


def min_value(game, state, alpha, beta):
    return 3
