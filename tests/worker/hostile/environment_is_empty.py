# expect: completed
# The environment holds nothing of the grader's.


def max_value(game, state, alpha, beta):
    import os

    if set(os.environ) - {"LC_CTYPE"}:
        raise SystemError(sorted(os.environ))
    return 0


def min_value(game, state, alpha, beta):
    return 0
