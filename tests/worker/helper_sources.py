"""Decision-function searches of every algorithm family, written as aima-python writes them
(helpers nested in the decision function, no entry function at module level), each with a
small tree and a wrong variant: one line of a helper changed, so that a value returned
below the root is wrong while the move at the root stays right (which is all the grader
saw of such a search before its helpers' values were observed)."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

FIG52 = "MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]"
HEURISTIC = "MAX[ MIN[ MAX(3)[1 9] MAX(6)[2 8] ] MIN[ MAX(2)[7 7] MAX(4)[5 1] ] ]"
"""Searched to depth 2: B1, B2, C1 and C2 are scored by their evaluation (3, 6, 2, 4)."""
DICE = "MAX[ CHANCE[1/2*4 1/2*8] CHANCE[1/2*2 1/2*6] ]"
DICE_AND_MOVE = "MAX[ CHANCE[1/2*MIN[3 5] 1/2*MIN[7 1]] CHANCE[1/2*MIN[2 2] 1/2*MIN[0 4]] ]"


@dataclass(frozen=True)
class Family:
    """A decision-function search of one algorithm on one tree."""

    algorithm: str
    slug: str
    """The catalog exercise of the algorithm (its conventions; its hidden trees)."""
    tree: str
    correct: str
    bug: tuple[str, str]
    """The line of ``correct`` replaced, and what replaces it, in the wrong variant."""
    wrong_nodes: frozenset[str]
    """The nodes whose value the wrong variant returns wrong (and may not return)."""
    depth_limit: int | None = None

    @property
    def wrong(self) -> str:
        line, replacement = self.bug
        assert self.correct.count(line) == 1, line
        return self.correct.replace(line, replacement)


MINIMAX = textwrap.dedent(
    """
    import math

    def minmax_decision(state, game):
        player = game.to_move(state)

        def max_value(state):
            if game.terminal_test(state):
                return game.utility(state, player)
            v = -math.inf
            for a in game.actions(state):
                v = max(v, min_value(game.result(state, a)))
            return v

        def min_value(state):
            if game.terminal_test(state):
                return game.utility(state, player)
            v = math.inf
            for a in game.actions(state):
                v = min(v, max_value(game.result(state, a)))
            return v

        return max(game.actions(state), key=lambda a: min_value(game.result(state, a)))
    """
)

ALPHABETA = textwrap.dedent(
    """
    import math

    def alpha_beta_search(state, game):
        player = game.to_move(state)

        def max_value(state, alpha, beta):
            if game.terminal_test(state):
                return game.utility(state, player)
            v = -math.inf
            for a in game.actions(state):
                v = max(v, min_value(game.result(state, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v

        def min_value(state, alpha, beta):
            if game.terminal_test(state):
                return game.utility(state, player)
            v = math.inf
            for a in game.actions(state):
                v = min(v, max_value(game.result(state, a), alpha, beta))
                if v <= alpha:
                    return v
                beta = min(beta, v)
            return v

        best_score, best_action = -math.inf, None
        for a in game.actions(state):
            v = min_value(game.result(state, a), best_score, math.inf)
            if v > best_score:
                best_score, best_action = v, a
        return best_action
    """
)

NEGAMAX = textwrap.dedent(
    """
    import math

    def minmax_decision(state, game):
        def negamax(state):
            if game.terminal_test(state):
                return game.utility(state, game.to_move(state))
            v = -math.inf
            for a in game.actions(state):
                v = max(v, -negamax(game.result(state, a)))
            return v

        return max(game.actions(state), key=lambda a: -negamax(game.result(state, a)))
    """
)

NEGAMAX_ALPHABETA = textwrap.dedent(
    """
    import math

    def alpha_beta_search(state, game):
        def negamax(state, alpha, beta):
            if game.terminal_test(state):
                return game.utility(state, game.to_move(state))
            v = -math.inf
            for a in game.actions(state):
                v = max(v, -negamax(game.result(state, a), -beta, -alpha))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v

        best_action, alpha = None, -math.inf
        for a in game.actions(state):
            v = -negamax(game.result(state, a), -math.inf, -alpha)
            if v > alpha:
                best_action, alpha = a, v
        return best_action
    """
)

DEPTH_LIMITED_MINIMAX = textwrap.dedent(
    """
    import math

    LIMIT = 2

    def minmax_decision(state, game):
        player = game.to_move(state)
        sign = 1 if player == "MAX" else -1

        def max_value(state, depth):
            if game.terminal_test(state):
                return game.utility(state, player)
            if depth == 0:
                return sign * game.eval(state)
            v = -math.inf
            for a in game.actions(state):
                v = max(v, min_value(game.result(state, a), depth - 1))
            return v

        def min_value(state, depth):
            if game.terminal_test(state):
                return game.utility(state, player)
            if depth == 0:
                return sign * game.eval(state)
            v = math.inf
            for a in game.actions(state):
                v = min(v, max_value(game.result(state, a), depth - 1))
            return v

        actions = game.actions(state)
        return max(actions, key=lambda a: min_value(game.result(state, a), LIMIT - 1))
    """
)

DEPTH_LIMITED_ALPHABETA = textwrap.dedent(
    """
    import numpy as np

    def alpha_beta_cutoff_search(state, game, d=4, cutoff_test=None, eval_fn=None):
        player = game.to_move(state)

        def max_value(state, alpha, beta, depth):
            if cutoff_test(state, depth):
                return eval_fn(state)
            v = -np.inf
            for a in game.actions(state):
                v = max(v, min_value(game.result(state, a), alpha, beta, depth + 1))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v

        def min_value(state, alpha, beta, depth):
            if cutoff_test(state, depth):
                return eval_fn(state)
            v = np.inf
            for a in game.actions(state):
                v = min(v, max_value(game.result(state, a), alpha, beta, depth + 1))
                if v <= alpha:
                    return v
                beta = min(beta, v)
            return v

        cutoff_test = cutoff_test or (lambda state, depth: depth > d or game.terminal_test(state))
        eval_fn = eval_fn or (lambda state: game.utility(state, player))
        best_score, beta, best_action = -np.inf, np.inf, None
        for a in game.actions(state):
            v = min_value(game.result(state, a), best_score, beta, 1)
            if v > best_score:
                best_score, best_action = v, a
        return best_action
    """
)

EXPECTIMAX = textwrap.dedent(
    """
    def expectiminimax(state, game):
        def value(state):
            if game.terminal_test(state):
                return game.utility(state, "MAX")
            player = game.to_move(state)
            if player == "MAX":
                return max(value(game.result(state, a)) for a in game.actions(state))
            if player == "MIN":
                return min(value(game.result(state, a)) for a in game.actions(state))
            outcomes = game.chance_outcomes(state)
            return sum(p * value(game.result(state, a)) for a, p in outcomes)

        sign = 1 if game.to_move(state) == "MAX" else -1
        return max(game.actions(state), key=lambda a: sign * value(game.result(state, a)))
    """
)
EXPECTIMAX_BUG = (
    "        return sum(p * value(game.result(state, a)) for a, p in outcomes)\n",
    "        total = sum(value(game.result(state, a)) for a, _ in outcomes)\n"
    "        return total / (len(outcomes) + 1)\n",
)

MIN_STARTS_AT_ZERO = ("        v = math.inf\n", "        v = 0\n")
MIN_STARTS_AT_ZERO_NP = ("        v = np.inf\n", "        v = 0\n")
NEGAMAX_STARTS_AT_ZERO = ("        v = -math.inf\n", "        v = 0\n")

FAMILIES = (
    Family("minimax", "aima-fig5.2-minimax", FIG52, MINIMAX, MIN_STARTS_AT_ZERO, frozenset("BCD")),
    # Alpha-beta: C and D may return a value between their own and alpha = 3, not 0.
    Family(
        "alphabeta", "aima-fig5.2-alphabeta", FIG52, ALPHABETA, MIN_STARTS_AT_ZERO, frozenset("BCD")
    ),
    Family("negamax", "grundy-7-negamax", FIG52, NEGAMAX, NEGAMAX_STARTS_AT_ZERO, frozenset("BCD")),
    Family(
        "negamax-alphabeta",
        "aima-fig5.2-negamax-alphabeta",
        FIG52,
        NEGAMAX_ALPHABETA,
        NEGAMAX_STARTS_AT_ZERO,
        frozenset("BCD"),
    ),
    Family(
        "depth-limited-minimax",
        "tictactoe-depth2-heuristic",
        HEURISTIC,
        DEPTH_LIMITED_MINIMAX,
        MIN_STARTS_AT_ZERO,
        frozenset("BC"),
        depth_limit=2,
    ),
    Family(
        "depth-limited-alphabeta",
        "tictactoe-depth2-alphabeta",
        HEURISTIC,
        DEPTH_LIMITED_ALPHABETA,
        MIN_STARTS_AT_ZERO_NP,
        frozenset("BC"),
        depth_limit=2,
    ),
    Family("expectimax", "expectimax-dice", DICE, EXPECTIMAX, EXPECTIMAX_BUG, frozenset("BC")),
    Family(
        "expectiminimax",
        "expectiminimax-rescaling",
        DICE_AND_MOVE,
        EXPECTIMAX,
        EXPECTIMAX_BUG,
        frozenset("BC"),
    ),
)
