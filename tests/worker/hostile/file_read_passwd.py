# expect: runtime_error
# Reading a system file.


def max_value(game, state, alpha, beta):
    return len(open("/etc/passwd").read())


def min_value(game, state, alpha, beta):
    return 0
