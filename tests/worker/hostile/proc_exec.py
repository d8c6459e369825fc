# expect: runtime_error
# Replacing the process with a shell (killed: exec is never allowed).


def max_value(game, state, alpha, beta):
    import os

    os.execv("/bin/sh", ["sh", "-c", "touch /tmp/hostile-was-here"])


def min_value(game, state, alpha, beta):
    return 0
