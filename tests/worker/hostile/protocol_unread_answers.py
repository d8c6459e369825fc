# expect: protocol_violation
# Requests written without reading the answers.


def max_value(game, state, alpha, beta):
    import os

    body = b"?s" + state._token.encode()
    message = len(body).to_bytes(4, "little") + body
    while True:
        os.write(4, message)


def min_value(game, state, alpha, beta):
    return 0
