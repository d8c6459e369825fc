# expect: runtime_error
# os._exit() before answering.


def max_value(game, state, alpha, beta):
    import os

    os._exit(0)


def min_value(game, state, alpha, beta):
    return 0
