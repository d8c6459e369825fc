# expect: runtime_error
# Opening a network connection.


def max_value(game, state, alpha, beta):
    import socket

    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    connection.connect(("127.0.0.1", 80))
    return 0


def min_value(game, state, alpha, beta):
    return 0
