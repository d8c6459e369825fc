# expect: protocol_violation
# message: never handed out
# Asks the same state again and again (answered without being worked out anew), then
# sends the same request with the handle's last digit changed.


def max_value(game, state, alpha, beta):
    import os

    for _ in range(50):
        game.actions(state)
    token = state._token
    forged = token[:-1] + ("0" if token[-1] != "0" else "1")
    body = b"?a" + forged.encode()
    os.write(4, len(body).to_bytes(4, "little") + body)
    os.read(3, 65536)
    return 0


def min_value(game, state, alpha, beta):
    return 0
