# family: negamax
# algorithms: negamax
# expect: wrong
# bug: negates the maximum of the child values instead of taking the maximum of their negations
# first-divergence: grundy-7-negamax at B1
# misconception: negates the maximum instead of maximizing negations
# explanation: The player to move wants the move whose value is best for itself, the maximum of the
#   negated child values: MAX(−v1, −v2, ...). This search takes the maximum of the children's own
#   values and negates it at the end, −MAX(v1, v2, ...), which equals the minimum of the negations:
#   the player picks the move that is best for the opponent.
# pseudocode: Figure 5.3 in negamax form (MAX-VALUE for the player to move), v ← MAX(v,
#   −NEGAMAX(RESULT(s, a)))
# hint: Is negating after choosing the same as negating before choosing? Try two children worth 1
#   and 5.
"""``-max(values)`` is ``min(-values)``, not ``max(-values)``."""

import math


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, negamax(game, game.result(state, action)))
    return -v
