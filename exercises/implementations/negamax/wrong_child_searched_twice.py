# family: negamax
# algorithms: negamax
# expect: wrong
# bug: calls negamax a second time on a child that improves v, searching its subtree twice
# first-divergence: grundy-7-negamax at B1.1.1.1
# misconception: child's subtree searched twice (negamax)
# explanation: Each child is searched once and its negated value folded into v. This search calls
#   NEGAMAX once to compare the child with v and again to take its value, so every child that
#   improves v has its whole subtree searched twice. The value is right but the search does far more
#   work than negamax needs.
# pseudocode: Figure 5.3 in negamax form (MAX-VALUE for the player to move), v ← MAX(v,
#   −NEGAMAX(RESULT(s, a)))
# hint: Count how many times your search is called on one child. Could you keep the value after the
#   first call?
"""``if -negamax(...) > v: v = -negamax(...)`` gets the value right at twice the cost."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        child = game.result(state, action)
        if -negamax(game, child) > v:
            v = -negamax(game, child)
    return v
