# expect: protocol_violation
# A message declaring a length over the limit.


def max_value(game, state, alpha, beta):
    import os

    os.write(4, b"\xff\xff\xff\x7f")
    return 0


def min_value(game, state, alpha, beta):
    return 0
