# family: negamax
# algorithms: negamax-alphabeta
# expect: correct
# pruning: on-equality
# bug: under the strict rule it prunes on alpha == beta, where the search should go on
# first-divergence: aima-fig5.2-negamax-alphabeta/tie at C2
"""Negamax with alpha-beta in the fail-hard style: the result is clamped to [alpha, beta]."""


def negamax(game, state, alpha, beta):
    """alpha raised to the state's value for the player to move, or beta if it is that high."""
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    for action in game.actions(state):
        alpha = max(alpha, -negamax(game, game.result(state, action), -beta, -alpha))
        if alpha >= beta:
            return beta
    return alpha
