# expect: runtime_error
# Becoming root again.


def max_value(game, state, alpha, beta):
    import os

    os.setuid(0)


def min_value(game, state, alpha, beta):
    return 0
