# expect: time_limit
# limits: wall=0.5
# Sleeping in small steps and swallowing every exception.


def max_value(game, state, alpha, beta):
    import time

    while True:
        try:
            time.sleep(0.01)
        except BaseException as error:
            del error


def min_value(game, state, alpha, beta):
    return 0
