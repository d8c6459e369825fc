# expect: protocol_violation
# message: more than [\d,]+ game calls
# The same request over and over, far past the request cap: the trusted side answers a
# request asked before without working it out again, and still counts every one.


def max_value(game, state, alpha, beta):
    while True:
        game.actions(state)


def min_value(game, state, alpha, beta):
    return 0
