# expect: completed
# Asking for executable memory is refused (mmap returns -1).


def max_value(game, state, alpha, beta):
    import ctypes

    libc = ctypes.CDLL(None)
    libc.mmap.restype = ctypes.c_long
    if libc.mmap(None, 4096, 7, 0x22, -1, 0) != -1:
        raise SystemError("executable memory granted")
    return 0


def min_value(game, state, alpha, beta):
    return 0
