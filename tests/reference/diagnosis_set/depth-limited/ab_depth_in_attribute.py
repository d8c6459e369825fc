# exercise: tictactoe-depth2-alphabeta
# matches: none
# related: none
# style: the depth is kept in self.left, overwritten by each child's call; a class's methods
"""Depth-limited alpha-beta agent; it remembers how many plies are left."""


class Agent:
    def __init__(self):
        self.left = 0

    def max_value(self, game, state, alpha, beta, depth):
        self.left = depth
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        if self.left <= 0:
            return game.eval(state)
        v = float("-inf")
        for action in game.actions(state):
            child = game.result(state, action)
            v = max(v, self.min_value(game, child, alpha, beta, self.left - 1))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(self, game, state, alpha, beta, depth):
        self.left = depth
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        if self.left <= 0:
            return game.eval(state)
        v = float("inf")
        for action in game.actions(state):
            child = game.result(state, action)
            v = min(v, self.max_value(game, child, alpha, beta, self.left - 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v


agent = Agent()
max_value = agent.max_value
min_value = agent.min_value
