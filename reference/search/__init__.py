"""Reference search algorithms that emit complete traces, registered by name.

>>> from reference.search import search
>>> result = search(tree, "alphabeta")          # doctest: +SKIP
>>> result.value, result.decision, result.trace.visited()   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from reference.search.alphabeta import AlphaBeta
from reference.search.engine import (
    Algorithm,
    Order,
    SearchError,
    SearchOptions,
    SearchResult,
)
from reference.search.expectimax import Expectimax, Expectiminimax
from reference.search.minimax import DepthLimitedMinimax, Minimax
from reference.search.negamax import Negamax, NegamaxAlphaBeta
from reference.search.trace import Backup, Cutoff, Enter, Evaluate, Event, Return, Trace
from reference.tree import Tree

_ALGORITHMS: dict[str, type[Algorithm]] = {}


def register(algorithm: type[Algorithm]) -> type[Algorithm]:
    """Make an algorithm available by its ``name``."""
    _ALGORITHMS[algorithm.name] = algorithm
    return algorithm


for _algorithm in (
    Minimax,
    DepthLimitedMinimax,
    AlphaBeta,
    Negamax,
    NegamaxAlphaBeta,
    Expectimax,
    Expectiminimax,
):
    register(_algorithm)

ALGORITHMS: Mapping[str, type[Algorithm]] = MappingProxyType(_ALGORITHMS)
"""Every registered algorithm by name."""


def search(
    tree: Tree, algorithm: str = "minimax", options: SearchOptions | None = None
) -> SearchResult:
    """Run the named reference algorithm on ``tree``."""
    try:
        cls = ALGORITHMS[algorithm]
    except KeyError:
        known = ", ".join(ALGORITHMS)
        raise SearchError(f"unknown algorithm {algorithm!r} (known: {known})") from None
    return cls(options).run(tree)


__all__ = [
    "ALGORITHMS",
    "Algorithm",
    "Backup",
    "Cutoff",
    "Enter",
    "Evaluate",
    "Event",
    "Order",
    "Return",
    "SearchError",
    "SearchOptions",
    "SearchResult",
    "Trace",
    "register",
    "search",
]
