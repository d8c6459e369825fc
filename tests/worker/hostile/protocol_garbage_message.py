# expect: protocol_violation
# message: malformed message
# A whole message of bytes that are neither a request, notes, output nor a report.


def max_value(game, state, alpha, beta):
    import os

    body = b"\x00\x01\x02" + bytes(range(256))
    os.write(4, len(body).to_bytes(4, "little") + body)
    os.read(3, 65536)
    return 0


def min_value(game, state, alpha, beta):
    return 0
