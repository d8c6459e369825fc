# expect: runtime_error
# message: SIGSEGV
# Reading address 1 with ctypes: the process crashes, nothing else.


def max_value(game, state, alpha, beta):
    import ctypes

    return len(ctypes.string_at(1, 16))


def min_value(game, state, alpha, beta):
    return 0
