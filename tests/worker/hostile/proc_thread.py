# expect: runtime_error
# Starting a thread.


def max_value(game, state, alpha, beta):
    import _thread

    _thread.start_new_thread(print, ("x",))


def min_value(game, state, alpha, beta):
    return 0
