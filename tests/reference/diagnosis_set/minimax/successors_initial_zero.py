# exercise: grundy-7-minimax
# matches: minimax/wrong_initial_value_zero
# related: none
# style: MAX's value starts at 0; successors walked with a while loop; renamed variables
"""Grundy's game by minimax over successors."""


def max_value(game, node):
    if game.terminal_test(node):
        return game.utility(node, "MAX")
    kids = list(game.successors(node))
    score = 0
    k = 0
    while k < len(kids):
        score = max(score, min_value(game, kids[k][1]))
        k += 1
    return score


def min_value(game, node):
    if game.terminal_test(node):
        return game.utility(node, "MAX")
    kids = list(game.successors(node))
    score = float("inf")
    k = 0
    while k < len(kids):
        score = min(score, max_value(game, kids[k][1]))
        k += 1
    return score
