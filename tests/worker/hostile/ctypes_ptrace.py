# expect: runtime_error
# Calling ptrace directly (killed: never allowed).


def max_value(game, state, alpha, beta):
    import ctypes

    ctypes.CDLL(None).ptrace(16, 1, 0, 0)
    return 0


def min_value(game, state, alpha, beta):
    return 0
