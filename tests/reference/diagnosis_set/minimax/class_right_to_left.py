# exercise: fantan-1-3-minimax
# matches: minimax/wrong_right_to_left
# related: none
# style: both players search right to left; a class whose bound methods are the entry points
"""Fan-Tan minimax agent."""

import math


class Agent:
    def max_value(self, game, state):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        v = -math.inf
        for action in game.actions(state)[::-1]:
            v = max(v, self.min_value(game, game.result(state, action)))
        return v

    def min_value(self, game, state):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        v = math.inf
        for action in game.actions(state)[::-1]:
            v = min(v, self.max_value(game, game.result(state, action)))
        return v


agent = Agent()
max_value = agent.max_value
min_value = agent.min_value
