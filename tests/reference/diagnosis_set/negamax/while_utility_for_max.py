# exercise: grundy-7-negamax
# matches: negamax/wrong_utility_for_max
# related: none
# style: every leaf is scored for MAX; successors walked with a while loop, renamed variables
"""Negamax over successors."""


def negamax(game, position):
    if game.terminal_test(position):
        return game.utility(position, "MAX")
    children = list(game.successors(position))
    result = float("-inf")
    idx = 0
    while idx < len(children):
        _, nxt = children[idx]
        result = max(result, -negamax(game, nxt))
        idx += 1
    return result
