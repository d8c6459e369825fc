# expect: time_limit
# An endless loop at the module's top level.

while True:
    pass


def max_value(game, state, alpha, beta):
    return 0


def min_value(game, state, alpha, beta):
    return 0
