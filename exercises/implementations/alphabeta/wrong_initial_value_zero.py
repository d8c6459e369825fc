# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: v starts at 0 instead of -inf / +inf
# first-divergence: aima-fig5.2-alphabeta at B
# misconception: v starts at 0, not −∞ / +∞
# explanation: MAX-VALUE must start with v ← −∞ and MIN-VALUE with v ← +∞, so that the first child's
#   value always replaces v. Starting both at 0 acts as if each player already had a move worth 0: a
#   MAX node whose moves are all negative, or a MIN node whose replies are all positive, is reported
#   as worth 0, and those wrong values then move α and β and change what is pruned.
# pseudocode: Figure 5.7, MAX-VALUE: v ← −∞ (and MIN-VALUE: v ← +∞)
# hint: What value does a node report before it has looked at any child? Try a MIN node whose leaves
#   are all positive.
"""Nodes whose children are all negative (below MAX) or all positive (below MIN) are worth 0."""


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = 0
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = 0
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
