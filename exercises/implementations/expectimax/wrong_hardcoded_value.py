# family: expectimax
# algorithms: expectimax, expectiminimax
# expect: wrong
# bug: returns the dice exercise's answer (10) without searching
# first-divergence: expectimax-dice at B1
# misconception: answer written in, no search (expectimax)
# explanation: The functions return the value of one public exercise (the dice gamble), worked out
#   by hand, instead of searching: they never look at ACTIONS, RESULT, the outcomes' probabilities
#   or UTILITY. On any other tree the value is wrong, and no node below the root is visited.
# pseudocode: Section 5.5, EXPECTIMINIMAX, chance node: Σ_r P(r) EXPECTIMINIMAX(RESULT(s, r))
# hint: Your functions must work on any tree: where do they look at the state they are given?
"""The expected value of the first gamble, worked out by hand."""


def max_value(game, state):
    return 10


def min_value(game, state):
    return 10


def exp_value(game, state):
    return 10
