# exercise: tictactoe-seed-alphabeta
# matches: none
# related: alphabeta/wrong_swapped_cutoff_tests
# style: MAX tests its cut-off against alpha (v <= alpha), MIN is right; functions from a closure
"""Alpha-beta for tic-tac-toe, the two functions made together."""


def make_search(infinity=float("inf")):
    def max_value(game, state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        best = -infinity
        for move in game.actions(state):
            best = max(best, min_value(game, game.result(state, move), alpha, beta))
            if best <= alpha:
                return best
            alpha = max(alpha, best)
        return best

    def min_value(game, state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, "MAX")
        best = infinity
        for move in game.actions(state):
            best = min(best, max_value(game, game.result(state, move), alpha, beta))
            if best <= alpha:
                return best
            beta = min(beta, best)
        return best

    return max_value, min_value


max_value, min_value = make_search()
