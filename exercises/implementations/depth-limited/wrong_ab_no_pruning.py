# family: depth-limited
# algorithms: depth-limited-alphabeta
# expect: wrong
# bug: keeps alpha and beta up to date but never prunes: depth-limited minimax with extra arguments
# first-divergence: tictactoe-depth2-alphabeta at D2
# misconception: bounds kept but never used to prune (depth-limited)
# explanation: This search keeps α and β up to date but never tests v ≥ β in MAX-VALUE or v ≤ α in
#   MIN-VALUE, so no node stops early: it is depth-limited minimax with two extra arguments. The
#   value is right, but every position at the cut-off is evaluated.
# pseudocode: Section 5.4, Figure 5.7 with the cut-off, MAX-VALUE: if v ≥ β then return v
# hint: Your window is computed, but where is it used? Find the moment a node can tell that the
#   player above will never let the game reach it.
"""The value is right; every position at the cut-off is evaluated."""

import math


def max_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta, depth - 1))
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta, depth - 1))
        beta = min(beta, v)
    return v
