"""Reference search algorithms that emit complete traces, registered by name.

>>> from reference.search import search
>>> result = search(tree, "alphabeta")          # doctest: +SKIP
>>> result.value, result.decision, result.trace.visited()   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from reference.search.engine import (
    Algorithm,
    Order,
    SearchError,
    SearchOptions,
    SearchResult,
)
from reference.search.trace import Backup, Cutoff, Enter, Evaluate, Event, Return, Trace
from reference.tree import Tree


def __getattr__(name: str) -> Mapping[str, type[Algorithm]]:
    # ``ALGORITHMS`` is read from the one registry of algorithms, which imports this
    # package's modules: read when first asked for, not when this package loads.
    if name == "ALGORITHMS":
        from reference.algorithms import ALGORITHMS as registry

        return MappingProxyType({key: entry.reference for key, entry in registry.items()})
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def search(
    tree: Tree, algorithm: str = "minimax", options: SearchOptions | None = None
) -> SearchResult:
    """Run the named reference algorithm on ``tree``."""
    from reference.algorithms import ALGORITHMS as registry

    try:
        cls = registry[algorithm].reference
    except KeyError:
        known = ", ".join(registry)
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
    "search",
]
