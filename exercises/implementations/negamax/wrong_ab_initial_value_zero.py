# family: negamax
# algorithms: negamax-alphabeta
# expect: wrong
# bug: v starts at 0 instead of -inf, so a node where every move loses for its mover is worth 0
# first-divergence: aima-fig5.2-negamax-alphabeta/fig5.2 at B
# misconception: v starts at 0, not −∞ (negamax alpha-beta)
# explanation: v must start at −∞ so the first move's value always replaces it (Figure 5.7's v ←
#   −∞). In negamax the values of half the nodes are the opponent's, so negative values are common:
#   a node where every move loses for the player to move is reported as worth 0, and that wrong
#   value moves α and changes what is pruned.
# pseudocode: Figure 5.7 in negamax form (MAX-VALUE for the player to move), v ← −∞
# hint: What value does a node report before it has looked at any move? Try a node where every move
#   loses.
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
