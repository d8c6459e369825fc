# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: MAX-VALUE calls MAX-VALUE and MIN-VALUE calls MIN-VALUE on the children
# first-divergence: tictactoe-depth2-heuristic at B
# misconception: players do not alternate (depth-limited)
# explanation: MAX-VALUE must value its children with MIN-VALUE and MIN-VALUE with MAX-VALUE,
#   because the players take turns. Here each function calls itself, so below the root one player
#   makes every choice: the value is the best (or worst) evaluation at the cut-off, not the minimax
#   value.
# pseudocode: Section 5.4, H-MINIMAX (Figure 5.3 with the cut-off), MAX-VALUE: v ← MAX(v,
#   MIN-VALUE(RESULT(s, a), depth − 1))
# hint: After MAX moves, whose turn is it? Check which function each of your functions calls on the
#   children.
"""The players do not alternate below the root."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, max_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in game.actions(state):
        v = min(v, min_value(game, game.result(state, action), depth - 1))
    return v
