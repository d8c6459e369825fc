# expect: protocol_violation
# A call note that is not JSON.


def max_value(game, state, alpha, beta):
    import os

    body = b"C{not json\n"
    os.write(4, len(body).to_bytes(4, "little") + body)
    return 0


def min_value(game, state, alpha, beta):
    return 0
