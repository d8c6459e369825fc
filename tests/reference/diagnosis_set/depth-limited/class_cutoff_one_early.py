# exercise: tictactoe-depth2-heuristic
# matches: depth-limited/wrong_cutoff_one_early
# related: none
# style: cuts off at depth 1 (depth <= 1); a class's bound methods, renamed variables
"""Depth-limited minimax agent."""


class Agent:
    INF = float("inf")

    def max_value(self, game, pos, plies):
        if game.terminal_test(pos):
            return game.utility(pos, "MAX")
        if plies <= 1:
            return game.eval(pos)
        best = -self.INF
        for m in game.actions(pos):
            best = max(best, self.min_value(game, game.result(pos, m), plies - 1))
        return best

    def min_value(self, game, pos, plies):
        if game.terminal_test(pos):
            return game.utility(pos, "MAX")
        if plies <= 1:
            return game.eval(pos)
        best = self.INF
        for m in game.actions(pos):
            best = min(best, self.max_value(game, game.result(pos, m), plies - 1))
        return best


agent = Agent()
max_value = agent.max_value
min_value = agent.min_value
