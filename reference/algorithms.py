"""The registry of the search algorithms students implement: one entry per algorithm.

Everything the grader needs to know about an algorithm lives in its entry here: the entry
functions a student's module defines and the arguments they take, whether they carry an
alpha-beta window, whether values are for the player to move (negamax), the textbook's
decision functions that may stand in for the entry functions, and the kinds of the internal
nodes of its hidden trees, level by level. The harness, the trusted runner, the hidden-tree
generator and the exercise model read these facts from here; adding an algorithm is adding
one entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from reference.search.alphabeta import AlphaBeta, DepthLimitedAlphaBeta
from reference.search.engine import SearchEngine
from reference.search.expectimax import Expectimax, Expectiminimax
from reference.search.minimax import DepthLimitedMinimax, Minimax
from reference.search.negamax import Negamax, NegamaxAlphaBeta
from reference.tree import Kind


@dataclass(frozen=True, slots=True)
class DecisionFunction:
    """A textbook function that returns the move to make at the root.

    ``state_first``: called ``f(state, game)`` (AIMA 3rd edition, aima-python's
    ``games.py``) rather than ``f(game, state)`` (the 4th edition's notebook).
    ``returns_pair``: it returns ``(value, move)`` rather than the move alone."""

    name: str
    state_first: bool = True
    returns_pair: bool = False
    cutoff: bool = False
    """aima-python's ``alpha_beta_cutoff_search(state, game, d, cutoff_test, eval_fn)``:
    given the exercise's depth limit as ``d`` (it counts the root's children as depth 1 and
    cuts off below ``d``: one less than the depth the root gets) and ``game.eval`` for the
    player to move at the root as ``eval_fn``."""


@dataclass(frozen=True, slots=True)
class Algorithm:
    """One search algorithm as students write it."""

    name: str
    reference: type[SearchEngine]
    """The reference search, which emits the complete trace students are graded against."""
    entry_points: tuple[str, ...]
    """The functions a student's module defines (an exercise may rename them), in the order
    of the node kinds they search: MAX, MIN, then CHANCE (negamax: one function)."""
    layers: tuple[Kind, ...]
    """The kinds of a hidden tree's internal nodes, level by level (repeating)."""
    windowed: bool = False
    """Entry functions take ``(game, state, alpha, beta)``."""
    negamax: bool = False
    """One entry function; values are for the player to move."""
    decisions: tuple[DecisionFunction, ...] = ()
    """Decision functions that may stand in for the entry functions, first preferred."""
    summary: str = ""
    """What the entry functions compute, in the textbook's words (starter files and the
    exercise page's conventions say it)."""

    @property
    def decision_names(self) -> tuple[str, ...]:
        """The names of the decision functions, first preferred."""
        return tuple(decision.name for decision in self.decisions)

    def argument_index(self, bound: str) -> int | None:
        """Where ``bound`` (``alpha``, ``beta`` or ``depth``) is among an entry function's
        arguments, ``(game, state, alpha, beta, depth)`` or ``(game, state, depth)``; None
        for a bound it takes none of (the depth is there only in a depth-limited search)."""
        if self.windowed and bound in ("alpha", "beta"):
            return 2 if bound == "alpha" else 3
        if bound == "depth":
            return 4 if self.windowed else 2
        return None


_MINIMAX_DECISIONS = (
    DecisionFunction("minmax_decision"),
    DecisionFunction("minimax_decision"),
    DecisionFunction("minimax_search", state_first=False, returns_pair=True),
)
_ALPHABETA_DECISIONS = (
    DecisionFunction("alpha_beta_search"),
    DecisionFunction("alpha_beta_cutoff_search", cutoff=True),
    DecisionFunction("alphabeta_search", state_first=False, returns_pair=True),
)
_CHANCE_DECISIONS = (DecisionFunction("expectiminimax"), DecisionFunction("expect_minmax"))
_MAX_MIN = (Kind.MAX, Kind.MIN)

ALGORITHMS: Mapping[str, Algorithm] = MappingProxyType(
    {
        algorithm.name: algorithm
        for algorithm in (
            Algorithm(
                "minimax",
                Minimax,
                ("max_value", "min_value"),
                _MAX_MIN,
                decisions=_MINIMAX_DECISIONS,
                summary="MAX-VALUE and MIN-VALUE return a state's minimax value: MAX takes "
                "the largest value of its children, MIN the smallest (AIMA Figure 5.3).",
            ),
            Algorithm(
                "depth-limited-minimax",
                DepthLimitedMinimax,
                ("max_value", "min_value"),
                _MAX_MIN,
                decisions=_MINIMAX_DECISIONS,
                summary="Minimax searched to a depth limit: a state where the depth reaches 0 "
                "is scored by game.eval(state) instead of being searched.",
            ),
            Algorithm(
                "alphabeta",
                AlphaBeta,
                ("max_value", "min_value"),
                _MAX_MIN,
                windowed=True,
                decisions=_ALPHABETA_DECISIONS,
                summary="Minimax with alpha-beta pruning: alpha is the best value MAX is "
                "sure of on the path, beta MIN's; a node stops searching its children once "
                "its value passes the window (AIMA Figure 5.7).",
            ),
            Algorithm(
                "depth-limited-alphabeta",
                DepthLimitedAlphaBeta,
                ("max_value", "min_value"),
                _MAX_MIN,
                windowed=True,
                decisions=_ALPHABETA_DECISIONS,
                summary="Alpha-beta searched to a depth limit: a state where the depth reaches "
                "0 is scored by game.eval(state); the depth comes after the window.",
            ),
            Algorithm(
                "negamax",
                Negamax,
                ("negamax",),
                _MAX_MIN,
                negamax=True,
                decisions=_MINIMAX_DECISIONS,
                summary="One function for both players: a state's value for the player to "
                "move is the largest of its children's values negated.",
            ),
            Algorithm(
                "negamax-alphabeta",
                NegamaxAlphaBeta,
                ("negamax",),
                _MAX_MIN,
                windowed=True,
                negamax=True,
                decisions=_ALPHABETA_DECISIONS,
                summary="Negamax with alpha-beta pruning: a child is searched with the window "
                "(-beta, -alpha), and the search stops once a value reaches beta.",
            ),
            Algorithm(
                "expectimax",
                Expectimax,
                ("max_value", "exp_value"),
                (Kind.MAX, Kind.CHANCE),
                decisions=_CHANCE_DECISIONS,
                summary="MAX takes the largest value of its children; a chance state's value "
                "is its outcomes' values weighted by their probabilities.",
            ),
            Algorithm(
                "expectiminimax",
                Expectiminimax,
                ("max_value", "min_value", "exp_value"),
                (Kind.MAX, Kind.CHANCE, Kind.MIN, Kind.CHANCE),
                decisions=_CHANCE_DECISIONS,
                summary="EXPECTIMINIMAX: MAX takes the largest value, MIN the smallest, a "
                "chance state the probability-weighted sum of its outcomes (AIMA 5.5).",
            ),
        )
    }
)
"""Every algorithm, by name."""


def algorithm(name: str) -> Algorithm:
    """The algorithm called ``name`` (KeyError for an unknown one)."""
    return ALGORITHMS[name]


ROLE_BY_KIND: Mapping[str, int] = MappingProxyType({"MAX": 0, "MIN": 1, "CHANCE": -1})
"""Which of an algorithm's entry points searches a node of each kind (CHANCE: the last)."""


def find_decision(
    algorithm: Algorithm, lookup: Callable[[str], object]
) -> tuple[DecisionFunction, Callable[..., Any]] | None:
    """The first of ``algorithm``'s decision functions that ``lookup(name)`` finds callable,
    with what it found; None when there is none."""
    for decision in algorithm.decisions:
        found = lookup(decision.name)
        if callable(found):
            return decision, found
    return None


def call_decision(
    decision: DecisionFunction,
    function: Callable[..., Any],
    state: object,
    game: Any,
    depth_limit: int | None = None,
) -> object:
    """The move a decision function returns for ``state``, called the way its edition
    calls it (a ``(value, move)`` pair gives its move)."""
    if decision.cutoff and depth_limit is not None:
        # Its evaluation is for the player to move at the root, as its utilities are.
        sign = -1 if game.to_move(state) == "MIN" else 1
        return function(
            state, game, d=depth_limit - 1, eval_fn=lambda position: sign * game.eval(position)
        )
    result = function(state, game) if decision.state_first else function(game, state)
    if decision.returns_pair and type(result) is tuple and len(result) == 2:
        return result[1]
    return result
