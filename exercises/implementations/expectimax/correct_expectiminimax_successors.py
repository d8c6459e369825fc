# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: correct
"""EXPECTIMINIMAX with ``game.successors``: each function asks who moves in the child."""


def child_value(game, state):
    """The value of a child state, searched by the function of whoever moves there."""
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    search = {"MAX": max_value, "MIN": min_value}.get(game.to_move(state), exp_value)
    return search(game, state)


def max_value(game, state):
    return max(child_value(game, child) for _, child in game.successors(state))


def min_value(game, state):
    return min(child_value(game, child) for _, child in game.successors(state))


def exp_value(game, state):
    total = 0
    for action, probability in game.chance_outcomes(state):
        total += probability * child_value(game, game.result(state, action))
    return total
