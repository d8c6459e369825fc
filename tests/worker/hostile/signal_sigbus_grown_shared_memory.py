# expect: runtime_error
# message: SIGBUS
# Touching a shared anonymous mapping past the end of its memory: the process ends by SIGBUS.


def max_value(game, state, alpha, beta):
    import ctypes

    libc = ctypes.CDLL(None)
    libc.mmap.restype = libc.mremap.restype = ctypes.c_void_p
    libc.mmap.argtypes = (
        ctypes.c_void_p,
        ctypes.c_size_t,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_long,
    )
    libc.mremap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_int)
    page = 4096
    shared = libc.mmap(None, page, 3, 0x21, -1, 0)  # read/write, MAP_SHARED | MAP_ANONYMOUS
    grown = libc.mremap(shared, page, 4 * page, 1)  # MREMAP_MAYMOVE; the memory stays a page
    ctypes.memset(grown + 2 * page, 1, 1)
    return 0


def min_value(game, state, alpha, beta):
    return 0
