# expect: protocol_violation
# message: longer than
# A request whose frame declares fewer bytes than it sends: the bytes after it are read
# as the next message's length.


def max_value(game, state, alpha, beta):
    import os

    os.write(4, (2).to_bytes(4, "little") + b"?a" + state._token.encode())
    os.read(3, 65536)
    return 0


def min_value(game, state, alpha, beta):
    return 0
