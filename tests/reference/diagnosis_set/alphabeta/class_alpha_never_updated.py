# exercise: aima-fig5.2-alphabeta
# matches: alphabeta/wrong_alpha_never_updated
# related: none
# style: MAX never raises alpha; a class whose bound methods are the entry points
"""Alpha-beta agent."""

import math


class AlphaBeta:
    def max_value(self, game, state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        value = -math.inf
        for action in game.actions(state):
            value = max(value, self.min_value(game, game.result(state, action), alpha, beta))
            if value >= beta:
                return value
        return value

    def min_value(self, game, state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        value = math.inf
        for action in game.actions(state):
            value = min(value, self.max_value(game, game.result(state, action), alpha, beta))
            if value <= alpha:
                return value
            beta = min(beta, value)
        return value


player = AlphaBeta()
max_value = player.max_value
min_value = player.min_value
