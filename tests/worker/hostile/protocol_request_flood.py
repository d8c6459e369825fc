# expect: protocol_violation
# Far more game calls than any search needs.


def max_value(game, state, alpha, beta):
    while True:
        game.terminal_test(state)


def min_value(game, state, alpha, beta):
    return 0
