# expect: runtime_error
# Rewrites the told facts so every state looks terminal, then asks for utilities: the
# trusted side still refuses the utility of a state that is not terminal.


def max_value(game, state, alpha, beta):
    backend = game._backend
    for token in list(backend._facts):
        backend._facts[token] = (True, "MAX")
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return 0


def min_value(game, state, alpha, beta):
    return 0
