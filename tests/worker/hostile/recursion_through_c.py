# expect: runtime_error
# Recursion through C code past the C stack.

import sys

sys.setrecursionlimit(10**7)


def deeper(n):
    return sorted([n], key=deeper)


def max_value(game, state, alpha, beta):
    deeper(0)


def min_value(game, state, alpha, beta):
    return 0
