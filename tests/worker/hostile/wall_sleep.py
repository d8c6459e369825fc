# expect: time_limit
# limits: wall=0.5
# Sleeping: the wall-clock limit ends it.


def max_value(game, state, alpha, beta):
    import time

    time.sleep(100)


def min_value(game, state, alpha, beta):
    return 0
