# expect: protocol_violation
# Claiming a compile error for a file that compiles (the trusted side compiled it).


def max_value(game, state, alpha, beta):
    import os

    body = (
        b'!{"value": null, "decision": null, "decision_style": false, "defines": [], '
        b'"error": ["compile", "SyntaxError: invalid syntax", 1, 1, "SyntaxError", []]}'
    )
    os.write(4, len(body).to_bytes(4, "little") + body)
    os._exit(0)


def min_value(game, state, alpha, beta):
    return 0
