# expect: protocol_violation
# A handle the game never handed out.


def max_value(game, state, alpha, beta):
    return game.terminal_test(type(state)("0123456789abcdef"))


def min_value(game, state, alpha, beta):
    return 0
