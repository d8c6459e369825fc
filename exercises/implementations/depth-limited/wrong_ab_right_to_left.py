# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: wrong
# bug: searches the children right to left, so it prunes other positions than the reference
# first-divergence: tictactoe-depth2-alphabeta at H6
# misconception: children searched right to left (depth-limited alpha-beta)
# explanation: The search takes the actions from last to first instead of in the order
#   ACTIONS(state) gives them. The value is unchanged, but alpha-beta's pruning depends on the order
#   in which moves are examined, so other positions are pruned and evaluated than the exercise
#   expects.
# pseudocode: Section 5.4, Figure 5.7 with the cut-off, MAX-VALUE: for each a in ACTIONS(state) do
# hint: In which order does your loop go through the actions? Compare the first position you
#   evaluate with the leftmost one.
"""``reversed(game.actions(state))``."""

import math


def max_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in reversed(game.actions(state)):
        v = max(v, min_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in reversed(game.actions(state)):
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth - 1))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
