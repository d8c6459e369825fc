# expect: runtime_error
# An action string of ten million characters.


def max_value(game, state, alpha, beta):
    game.result(state, "a" * 10**7)


def min_value(game, state, alpha, beta):
    return 0
