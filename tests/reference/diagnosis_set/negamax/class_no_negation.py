# exercise: grundy-7-negamax
# matches: negamax/wrong_no_negation
# related: none
# style: the children's values are backed up without negation; a class's bound method
"""Negamax solver for Grundy's game."""


class Solver:
    worst = float("-inf")

    def negamax(self, game, state):
        if game.terminal_test(state):
            return game.utility(state, game.to_move(state))
        best = self.worst
        for move in game.actions(state):
            best = max(best, self.negamax(game, game.result(state, move)))
        return best


negamax = Solver().negamax
