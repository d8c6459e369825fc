# family: negamax
# algorithms: negamax
# expect: wrong
# bug: returns the answer of Grundy's game from 7 (-1) without searching
# first-divergence: grundy-7-negamax at B1.1.1.1
"""A value worked out by hand for one public tree."""


def negamax(game, state):
    return -1
