# expect: memory_limit
# Memory growing step by step.


def max_value(game, state, alpha, beta):
    x = []
    while True:
        x.append([0] * 10**5)


def min_value(game, state, alpha, beta):
    return 0
