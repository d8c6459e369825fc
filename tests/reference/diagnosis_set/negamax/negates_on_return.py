# exercise: grundy-7-negamax
# matches: none
# related: negamax/wrong_negates_the_max
# style: negates each child and negates again on return; an object with __call__ recursing
"""Negamax as a callable object that counts the nodes it searches."""

import math


class Negamax:
    def __init__(self):
        self.nodes = 0

    def __call__(self, game, state):
        self.nodes += 1
        if game.terminal_test(state):
            return game.utility(state, game.to_move(state))
        v = -math.inf
        for action in game.actions(state):
            v = max(v, -self(game, game.result(state, action)))
        return -v


negamax = Negamax()
