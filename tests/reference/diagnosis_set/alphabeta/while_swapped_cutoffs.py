# exercise: alphabeta-deep-cutoff
# matches: alphabeta/wrong_swapped_cutoff_tests
# related: none
# style: MAX stops on v <= alpha and MIN on v >= beta; while loops over an index, renamed bounds
"""Alpha-beta with while loops."""

NEG_INF = float("-inf")
POS_INF = float("inf")


def max_value(game, state, lo, hi):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    options = game.actions(state)
    best = NEG_INF
    n = 0
    while n < len(options):
        best = max(best, min_value(game, game.result(state, options[n]), lo, hi))
        if best <= lo:
            return best
        lo = max(lo, best)
        n += 1
    return best


def min_value(game, state, lo, hi):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    options = game.actions(state)
    best = POS_INF
    n = 0
    while n < len(options):
        best = min(best, max_value(game, game.result(state, options[n]), lo, hi))
        if best >= hi:
            return best
        hi = min(hi, best)
        n += 1
    return best
