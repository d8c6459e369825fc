# exercise: aima-fig5.2-alphabeta
# matches: alphabeta/wrong_min_returns_alpha
# related: none
# style: MIN-VALUE returns alpha when no child prunes; successors, renamed bounds
"""Alpha-beta over successors."""

import math


def max_value(game, s, lower, upper):
    if game.terminal_test(s):
        return game.utility(s, "MAX")
    best = -math.inf
    for _, nxt in game.successors(s):
        best = max(best, min_value(game, nxt, lower, upper))
        if best >= upper:
            return best
        lower = max(lower, best)
    return best


def min_value(game, s, lower, upper):
    if game.terminal_test(s):
        return game.utility(s, "MAX")
    best = math.inf
    for _, nxt in game.successors(s):
        best = min(best, max_value(game, nxt, lower, upper))
        if best <= lower:
            return best
        upper = min(upper, best)
    return lower
