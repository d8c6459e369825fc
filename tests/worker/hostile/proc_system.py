# expect: completed
# os.system cannot start a shell (it returns -1); nothing is created.


def max_value(game, state, alpha, beta):
    import os

    if os.system("touch /tmp/hostile-was-here") == 0:
        raise SystemError("a shell ran")
    return 0


def min_value(game, state, alpha, beta):
    return 0
