# expect: runtime_error
# Writing a file in the working directory.


def max_value(game, state, alpha, beta):
    with open("hostile-was-here", "w") as file:
        file.write("x")


def min_value(game, state, alpha, beta):
    return 0
