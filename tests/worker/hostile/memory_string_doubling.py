# expect: memory_limit
# A string doubling until memory runs out.


def max_value(game, state, alpha, beta):
    s = "x"
    while True:
        s += s


def min_value(game, state, alpha, beta):
    return 0
