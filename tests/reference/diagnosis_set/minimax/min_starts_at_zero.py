# exercise: grundy-7-minimax
# matches: none
# related: minimax/wrong_initial_value_zero
# style: MIN's best starts at 0 (MAX's at -inf); a class whose bound methods are the entry points
"""Grundy's game, minimax as a small agent class."""


class Minimax:
    def __init__(self):
        self.lowest = float("-inf")

    def max_value(self, game, state):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        best = self.lowest
        for move in game.actions(state):
            best = max(best, self.min_value(game, game.result(state, move)))
        return best

    def min_value(self, game, state):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        best = 0
        for move in game.actions(state):
            best = min(best, self.max_value(game, game.result(state, move)))
        return best


agent = Minimax()
max_value = agent.max_value
min_value = agent.min_value
