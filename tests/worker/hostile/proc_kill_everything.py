# expect: runtime_error
# Killing every process it may.


def max_value(game, state, alpha, beta):
    import os

    os.kill(-1, 9)


def min_value(game, state, alpha, beta):
    return 0
