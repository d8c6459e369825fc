# exercise: expectiminimax-rescaling
# matches: none
# related: expectimax/wrong_chance_then_max
# style: every outcome of a roll is searched by MIN-VALUE, whoever moves next; successors
"""Expectiminimax: MAX moves, the dice roll, then the opponent answers."""


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return max(exp_value(game, child) for _, child in game.successors(state))


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    return min(exp_value(game, child) for _, child in game.successors(state))


def exp_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    total = 0
    for outcome, probability in game.chance_outcomes(state):
        total += probability * min_value(game, game.result(state, outcome))
    return total
