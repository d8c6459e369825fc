# expect: protocol_violation
# Calling the entry function on the root forever without asking the game.


def max_value(game, state, alpha, beta):
    while True:
        min_value(game, state, alpha, beta)


def min_value(game, state, alpha, beta):
    return 0
