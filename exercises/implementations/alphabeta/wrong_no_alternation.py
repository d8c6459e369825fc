# family: alphabeta
# algorithms: alphabeta
# expect: wrong
# bug: MAX-VALUE calls MAX-VALUE and MIN-VALUE calls MIN-VALUE on the children
# first-divergence: aima-fig5.2-alphabeta at B
# misconception: players do not alternate
# explanation: MAX-VALUE must value its children with MIN-VALUE and MIN-VALUE with MAX-VALUE,
#   because the players take turns. Here each function calls itself, so below the root one player
#   makes every choice: the values backed up are not minimax values, and the window is used for the
#   wrong player.
# pseudocode: Figure 5.7, MAX-VALUE: v ← MAX(v, MIN-VALUE(RESULT(s, a), α, β))
# hint: After MAX moves, whose turn is it? Check which function each of your functions calls on the
#   children.
"""The players do not alternate below the root."""

import math


def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, max_value(game, game.result(state, action), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, min_value(game, game.result(state, action), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
