# expect: protocol_violation
# A handed-out state with its handle altered.


def max_value(game, state, alpha, beta):
    state._token = state._token[::-1]
    return game.terminal_test(state)


def min_value(game, state, alpha, beta):
    return 0
