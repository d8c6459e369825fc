# family: depth-limited
# algorithms: depth-limited-minimax
# expect: wrong
# bug: v starts at 0 instead of -inf / +inf
# first-divergence: tictactoe-depth2-heuristic at F
# misconception: v starts at 0, not −∞ / +∞ (depth-limited)
# explanation: MAX-VALUE must start with v ← −∞ and MIN-VALUE with v ← +∞ so that the first child's
#   value always replaces v. Starting at 0 acts as if each player already had a move worth 0: a MAX
#   node whose moves all evaluate below 0, or a MIN node whose replies all evaluate above 0, is
#   reported as worth 0.
# pseudocode: Section 5.4, H-MINIMAX (Figure 5.3 with the cut-off), MAX-VALUE: v ← −∞ (and
#   MIN-VALUE: v ← +∞)
# hint: What value does a node report before it has looked at any child? Try a node whose children
#   all evaluate on one side of 0.
"""Nodes whose children are all negative (below MAX) or all positive (below MIN) are worth 0."""


def max_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = 0
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1))
    return v


def min_value(game, state, depth):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    if depth == 0:
        return game.eval(state)
    v = 0
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1))
    return v
