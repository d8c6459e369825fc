# expect: time_limit
# limits: wall=0.5
# Waiting for an answer nobody will send.


def max_value(game, state, alpha, beta):
    import os

    os.read(3, 1)


def min_value(game, state, alpha, beta):
    return 0
