# family: minimax
# algorithms: minimax
# expect: wrong
# bug: MAX-VALUE calls MAX-VALUE on its children, so MIN never gets a turn below the root
# first-divergence: aima-fig5.2-minimax at B
# misconception: players do not alternate
# explanation: In a two-player game the players take turns: MAX-VALUE values its children with
#   MIN-VALUE, and MIN-VALUE with MAX-VALUE. Here each function calls itself on the children, so
#   below the root one player makes every choice and the other never moves: the value is the best
#   (or worst) leaf, not the minimax value.
# pseudocode: Figure 5.3, MAX-VALUE: v ← MAX(v, MIN-VALUE(RESULT(s, a)))
# hint: After MAX moves, whose turn is it? Check which function each of your functions calls on the
#   children.
"""The players do not alternate: MAX chooses on every level."""

import math


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for action in game.actions(state):
        v = max(v, max_value(game, game.result(state, action)))
    return v


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for action in game.actions(state):
        v = min(v, min_value(game, game.result(state, action)))
    return v
