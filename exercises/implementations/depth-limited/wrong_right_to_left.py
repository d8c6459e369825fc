# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: searches the children right to left; the value is right but the order of the search is not
# first-divergence: tictactoe-depth2-heuristic at B1
# misconception: children searched right to left (depth-limited)
# explanation: The search takes the actions from last to first instead of in the order
#   ACTIONS(state) gives them. The value is right, but positions are visited and evaluated in
#   another order than the exercise expects (and with alpha-beta the order decides what is pruned).
# pseudocode: Section 5.4, H-MINIMAX (Figure 5.3 with the cut-off), MAX-VALUE: for each a in
#   ACTIONS(state) do
# hint: In which order does your loop go through the actions? Compare the first position you
#   evaluate with the leftmost one.
"""reversed(game.actions(state)) visits the last child first."""

import math


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = -math.inf
    for action in reversed(game.actions(state)):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = math.inf
    for action in reversed(game.actions(state)):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
