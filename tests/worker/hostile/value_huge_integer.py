# expect: completed
# A huge integer is reported as not usable, not trusted.


def max_value(game, state, alpha, beta):
    return 10**5000


def min_value(game, state, alpha, beta):
    return 0
