# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: returns the dice exercise's answer (10) without searching
# first-divergence: expectimax-dice at B1
"""The expected value of the first gamble, worked out by hand."""


def max_value(game, state):
    return 10


def min_value(game, state):
    return 10


def exp_value(game, state):
    return 10
