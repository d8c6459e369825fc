# family: negamax
# algorithms: negamax
# expect: wrong
# bug: v starts at 0 instead of -inf, so a lost position is worth 0
# first-divergence: grundy-7-negamax at B1.1
"""A player whose every move loses still reports a draw."""


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = 0
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action)))
    return v
