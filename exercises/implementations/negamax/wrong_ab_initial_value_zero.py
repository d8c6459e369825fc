# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: v starts at 0 instead of -inf, so a node where every move loses for its mover is worth 0
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at B
"""v = 0 looks harmless while every value is positive; negamax makes half of them negative."""


def negamax(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = 0
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action), -beta, -alpha))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v
