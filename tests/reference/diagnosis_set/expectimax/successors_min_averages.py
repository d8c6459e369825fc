# exercise: expectiminimax-rescaling
# matches: expectimax/wrong_min_averages
# related: none
# style: MIN averages its children as if it moved at random; successors, a dispatch table
"""Expectiminimax over successors."""


def search(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    turn = {"MAX": max_value, "MIN": min_value}
    return turn.get(game.to_move(state), exp_value)(game, state)


def max_value(game, state):
    return max(search(game, child) for _, child in game.successors(state))


def min_value(game, state):
    values = [search(game, child) for _, child in game.successors(state)]
    return sum(values) / len(values)


def exp_value(game, state):
    return sum(p * search(game, game.result(state, a)) for a, p in game.chance_outcomes(state))
