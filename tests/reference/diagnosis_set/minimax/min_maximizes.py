# exercise: grundy-7-minimax
# matches: none
# related: minimax/wrong_swapped_max_min, minimax/wrong_no_alternation
# style: MIN keeps a child when it is greater (comparison copied from MAX); explicit ifs; every
#   node then maximizes, so one player makes every choice below the root, the effect the library
#   calls "players do not alternate"
"""Minimax for Grundy's game, comparing by hand."""


def max_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    best = None
    for action in game.actions(state):
        value = min_value(game, game.result(state, action))
        if best is None or value > best:
            best = value
    return best


def min_value(game, state):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    best = None
    for action in game.actions(state):
        value = max_value(game, game.result(state, action))
        if best is None or value > best:
            best = value
    return best
