# expect: runtime_error
# Endless recursion.


def max_value(game, state, alpha, beta):
    return max_value(game, state, alpha, beta)


def min_value(game, state, alpha, beta):
    return 0
