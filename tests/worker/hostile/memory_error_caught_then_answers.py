# expect: completed
# Running out of memory, catching it, and answering anyway is allowed.


def max_value(game, state, alpha, beta):
    x = []
    try:
        while True:
            x.append(bytearray(10**6))
    except MemoryError:
        x.clear()
    return 0


def min_value(game, state, alpha, beta):
    return 0
