# expect: memory_limit
# One huge allocation.


def max_value(game, state, alpha, beta):
    x = [0] * 10**10
    return len(x)


def min_value(game, state, alpha, beta):
    return 0
