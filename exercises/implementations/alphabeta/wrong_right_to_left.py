# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: searches the children right to left, which prunes different leaves
# first-divergence: aima-fig5.2-alphabeta at B1
# misconception: children searched right to left
# explanation: The search takes the actions from last to first instead of in the order
#   ACTIONS(state) gives them. The value is unchanged, but alpha-beta's pruning depends on the order
#   in which moves are examined, so it prunes different leaves than the exercise (and the textbook's
#   Figure 5.5) expects.
# pseudocode: Figure 5.7, MAX-VALUE: for each a in ACTIONS(state) do
# hint: In which order does your loop go through the actions? Compare your first leaf with the
#   leftmost leaf of the tree.
"""reversed(game.actions(state)) visits the last child first."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in reversed(game.actions(state)):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in reversed(game.actions(state)):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
