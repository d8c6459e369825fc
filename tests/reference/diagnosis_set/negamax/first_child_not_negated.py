# exercise: grundy-7-negamax
# matches: none
# related: negamax/wrong_no_negation
# style: the first child's value starts v without negation, the rest are negated; while loop
"""Negamax: v starts from the first move instead of -infinity."""


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    moves = game.actions(state)
    v = negamax(game, game.result(state, moves[0]))
    i = 1
    while i < len(moves):
        v = max(v, -negamax(game, game.result(state, moves[i])))
        i += 1
    return v
