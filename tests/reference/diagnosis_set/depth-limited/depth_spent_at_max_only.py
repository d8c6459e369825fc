# exercise: tictactoe-depth2-heuristic
# matches: none
# related: depth-limited/wrong_depth_counted_per_move
# style: only MAX-VALUE passes depth - 1, MIN passes depth on; a class's bound methods
"""Depth-limited minimax: a round is MAX's move then MIN's."""


class Searcher:
    def max_value(self, game, state, depth):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        if depth == 0:
            return game.eval(state)
        best = float("-inf")
        for move in game.actions(state):
            best = max(best, self.min_value(game, game.result(state, move), depth - 1))
        return best

    def min_value(self, game, state, depth):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        if depth == 0:
            return game.eval(state)
        best = float("inf")
        for move in game.actions(state):
            best = min(best, self.max_value(game, game.result(state, move), depth))
        return best


searcher = Searcher()
max_value = searcher.max_value
min_value = searcher.min_value
