# expect: time_limit
# An endless loop inside the search.


def max_value(game, state, alpha, beta):
    while True:
        pass


def min_value(game, state, alpha, beta):
    return 0
