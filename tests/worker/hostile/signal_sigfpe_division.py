# expect: runtime_error
# message: SIGFPE
# An integer division by zero in C: the process ends by SIGFPE.


def max_value(game, state, alpha, beta):
    import faulthandler

    faulthandler._sigfpe()
    return 0


def min_value(game, state, alpha, beta):
    return 0
