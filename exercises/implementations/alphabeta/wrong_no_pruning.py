# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: keeps alpha and beta up to date but never prunes: plain minimax with extra arguments
# first-divergence: aima-fig5.2-alphabeta at C2
# misconception: bounds kept but never used to prune
# explanation: This search keeps α and β up to date but never tests v ≥ β in MAX-VALUE or v ≤ α in
#   MIN-VALUE, so it never stops early: it is minimax with two extra arguments. The value is right,
#   but every leaf is searched, and the point of alpha-beta, not searching what cannot change the
#   decision, is lost.
# pseudocode: Figure 5.7, MAX-VALUE: if v ≥ β then return v
# hint: Your window is computed, but where is it used? Find the moment a node can tell that the
#   player above will never let the game reach it.
"""The value is right; every leaf is searched."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), alpha, beta))
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), alpha, beta))
        beta = min(beta, v)
    return v
