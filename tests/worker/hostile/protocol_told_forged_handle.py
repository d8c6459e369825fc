# expect: protocol_violation
# Reports a terminal test, answered from told facts, of a handle never handed out.


def max_value(game, state, alpha, beta):
    import os

    body = b"=t0123456789abcdef\n"
    os.write(4, len(body).to_bytes(4, "little") + body)
    return game.terminal_test(state)


def min_value(game, state, alpha, beta):
    return 0
