# expect: protocol_violation
# Claiming that the grader failed.


def max_value(game, state, alpha, beta):
    import os

    body = b"Xthe grader broke"
    os.write(4, len(body).to_bytes(4, "little") + body)
    os._exit(0)


def min_value(game, state, alpha, beta):
    return 0
