# exercise: grundy-7-negamax
# matches: none
# related: negamax/wrong_initial_value_zero
# style: the best value starts at -1, the lowest utility Grundy's game has; plain function
"""Negamax for Grundy's game: nothing is worse than losing (-1)."""

LOSS = -1


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    best = LOSS
    for move in game.actions(state):
        best = max(best, -negamax(game, game.result(state, move)))
    return best
