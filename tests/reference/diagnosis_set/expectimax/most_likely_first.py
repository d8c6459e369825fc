# exercise: expectimax-dice
# matches: none
# related: expectimax/wrong_right_to_left
# style: a chance node searches its outcomes most likely first; a class's bound methods
"""Expectimax agent; the likely rolls are looked at first."""


class Expectimax:
    def value(self, game, state):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        if game.to_move(state) == "MAX":
            return self.max_value(game, state)
        return self.exp_value(game, state)

    def max_value(self, game, state):
        best = float("-inf")
        for action in game.actions(state):
            best = max(best, self.value(game, game.result(state, action)))
        return best

    def exp_value(self, game, state):
        outcomes = sorted(game.chance_outcomes(state), key=lambda pair: pair[1], reverse=True)
        expected = 0
        for action, p in outcomes:
            expected += p * self.value(game, game.result(state, action))
        return expected


agent = Expectimax()
max_value = agent.max_value
exp_value = agent.exp_value
