# family: negamax
# algorithms: negamax
# expect: wrong
# bug: v starts at 0 instead of -inf, so a lost position is worth 0
# first-divergence: grundy-7-negamax at B1.1
# misconception: v starts at 0, not −∞ (negamax)
# explanation: v must start at −∞ so that the first move's value always replaces it. In negamax half
#   of the values are negative (losses for the player to move), so starting at 0 acts as if the
#   player had a drawn move in hand: a lost position is reported as worth 0.
# pseudocode: Figure 5.3 in negamax form (MAX-VALUE for the player to move), v ← −∞
# hint: What does a node report when every move loses for the player to move?
"""A player whose every move loses still reports a draw."""


def negamax(game, state):
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    v = 0
    for action in game.actions(state):
        v = max(v, -negamax(game, game.result(state, action)))
    return v
