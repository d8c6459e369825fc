# expect: runtime_error
# Creating a file with os.open.


def max_value(game, state, alpha, beta):
    import os

    os.open("/tmp/hostile-was-here", os.O_CREAT | os.O_WRONLY)


def min_value(game, state, alpha, beta):
    return 0
