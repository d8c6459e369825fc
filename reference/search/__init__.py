"""Reference search algorithms that emit complete traces; each is the ``reference`` of its
entry in the one registry of algorithms, :data:`reference.algorithms.ALGORITHMS`.

>>> from reference.search import search
>>> result = search(tree, "alphabeta")          # doctest: +SKIP
>>> result.value, result.decision, result.trace.visited()   # doctest: +SKIP
"""

from __future__ import annotations

from reference.search.engine import (
    Order,
    SearchEngine,
    SearchError,
    SearchOptions,
    SearchResult,
)
from reference.search.trace import Backup, Cutoff, Enter, Evaluate, Event, Return, Trace
from reference.tree import Tree


def search(
    tree: Tree, algorithm: str = "minimax", options: SearchOptions | None = None
) -> SearchResult:
    """Run the named reference algorithm on ``tree`` (its entry in
    :data:`reference.algorithms.ALGORITHMS`)."""
    # The registry imports this package's modules: read when first asked for.
    from reference.algorithms import ALGORITHMS as registry

    try:
        cls = registry[algorithm].reference
    except KeyError:
        known = ", ".join(registry)
        raise SearchError(f"unknown algorithm {algorithm!r} (known: {known})") from None
    return cls(options).run(tree)


__all__ = [
    "Backup",
    "Cutoff",
    "Enter",
    "Evaluate",
    "Event",
    "Order",
    "Return",
    "SearchEngine",
    "SearchError",
    "SearchOptions",
    "SearchResult",
    "Trace",
    "search",
]
