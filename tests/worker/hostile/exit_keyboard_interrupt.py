# expect: runtime_error
# Raising KeyboardInterrupt.


def max_value(game, state, alpha, beta):
    raise KeyboardInterrupt


def min_value(game, state, alpha, beta):
    return 0
