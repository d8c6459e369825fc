# expect: protocol_violation
# Reports a call that must wait for its answer (actions) as answered from told facts.


def max_value(game, state, alpha, beta):
    import os

    body = b"=a" + state._token.encode() + b"\n"
    os.write(4, len(body).to_bytes(4, "little") + body)
    return game.utility(state, "MAX")


def min_value(game, state, alpha, beta):
    return 0
