# exercise: expectimax-dice
# matches: expectimax/wrong_average
# related: none
# style: a chance node is the plain mean of its outcomes; a class's bound methods
"""Expectimax agent."""

import statistics


class Agent:
    def value(self, game, state):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        if game.to_move(state) == "MAX":
            return self.max_value(game, state)
        return self.exp_value(game, state)

    def max_value(self, game, state):
        return max(self.value(game, game.result(state, a)) for a in game.actions(state))

    def exp_value(self, game, state):
        return statistics.mean(
            [self.value(game, game.result(state, a)) for a in game.actions(state)]
        )


agent = Agent()
max_value = agent.max_value
exp_value = agent.exp_value
