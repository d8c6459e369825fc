# family: negamax
# algorithms: negamax
# expect: wrong
# bug: returns the answer of Grundy's game from 7 (-1) without searching
# first-divergence: grundy-7-negamax at B1.1.1.1
# misconception: answer written in, no search (negamax)
# explanation: The function returns the value of one public tree (Grundy's game from 7), worked out
#   by hand, instead of searching: it never applies TERMINAL-TEST, ACTIONS, RESULT or UTILITY. On
#   any other tree the value is wrong, and no node below the root is visited.
# pseudocode: Figure 5.3 in negamax form (MAX-VALUE for the player to move), v ← MAX(v,
#   −NEGAMAX(RESULT(s, a)))
# hint: Your function must work on any game tree: where does it look at the state it is given?
"""A value worked out by hand for one public tree."""


def negamax(game, state):
    return -1
