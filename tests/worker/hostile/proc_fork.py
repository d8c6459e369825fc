# expect: runtime_error
# Forking.


def max_value(game, state, alpha, beta):
    import os

    os.fork()


def min_value(game, state, alpha, beta):
    return 0
