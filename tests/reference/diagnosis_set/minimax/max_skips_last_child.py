# exercise: fantan-1-3-minimax
# matches: none
# related: none
# style: MAX loops over all but its last move (off by one); MIN is right; one nested helper
"""Fan-Tan as minimax."""


def max_value(game, state):
    def score(child):
        if game.terminal_test(child):
            return game.utility(child, "MAX")
        return min_value(game, child)

    if game.terminal_test(state):
        return game.utility(state, "MAX")
    moves = game.actions(state)
    best = float("-inf")
    for i in range(len(moves) - 1):
        best = max(best, score(game.result(state, moves[i])))
    if best == float("-inf"):
        best = score(game.result(state, moves[-1]))
    return best


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    worst = float("inf")
    for move in game.actions(state):
        worst = min(worst, max_value(game, game.result(state, move)))
    return worst
