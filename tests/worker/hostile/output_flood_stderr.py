# expect: output_limit
# Writing to stderr forever.


def max_value(game, state, alpha, beta):
    import sys

    while True:
        sys.stderr.write("spam" * 100)


def min_value(game, state, alpha, beta):
    return 0
