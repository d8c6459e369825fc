# expect: output_limit
# Printing forever.


def max_value(game, state, alpha, beta):
    while True:
        print("spam" * 100)


def min_value(game, state, alpha, beta):
    return 0
