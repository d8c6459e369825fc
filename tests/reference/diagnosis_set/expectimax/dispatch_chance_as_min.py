# exercise: expectiminimax-rescaling
# matches: expectimax/wrong_chance_as_min
# related: none
# style: a chance node takes its worst outcome; successors, a dispatch on to_move
"""Expectiminimax over successors: the dice are against MAX."""


def score(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    mover = game.to_move(state)
    if mover == "MAX":
        return max_value(game, state)
    if mover == "MIN":
        return min_value(game, state)
    return exp_value(game, state)


def max_value(game, state):
    return max(score(game, child) for _, child in game.successors(state))


def min_value(game, state):
    return min(score(game, child) for _, child in game.successors(state))


def exp_value(game, state):
    return min(score(game, child) for _, child in game.successors(state))
