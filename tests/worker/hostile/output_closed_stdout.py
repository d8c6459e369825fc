# expect: runtime_error
# Printing after closing stdout.


def max_value(game, state, alpha, beta):
    import sys

    sys.stdout.close()
    print("x")


def min_value(game, state, alpha, beta):
    return 0
