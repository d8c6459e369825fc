# expect: runtime_error
# Changing directory.


def max_value(game, state, alpha, beta):
    import os

    os.chdir("/tmp")


def min_value(game, state, alpha, beta):
    return 0
