# expect: runtime_error
# Reading the process's own memory map.


def max_value(game, state, alpha, beta):
    return len(open("/proc/self/maps").read())


def min_value(game, state, alpha, beta):
    return 0
