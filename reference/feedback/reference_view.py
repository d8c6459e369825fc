"""What the reference search did, indexed for comparison: order, windows, cut-offs.

Besides reading the trace, this works out *why* the reference never visited a node: it
lies under a child cut off at some node (``pruned``) or below the depth limit (``depth``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from reference.feedback.geometry import Geometry
from reference.search import Backup, Cutoff, Enter, Evaluate, SearchResult, Trace
from reference.tree import Number


@dataclass(frozen=True, slots=True)
class Unvisited:
    """Why the reference never visited a node.

    ``pruned``: ``at`` is the child (the node or an ancestor) cut off by its parent.
    ``depth``: ``at`` is the ancestor at the depth limit, scored by its heuristic.
    """

    reason: Literal["pruned", "depth", "other"]
    at: str


@dataclass(slots=True)
class ReferenceView:
    """The reference search, indexed by node."""

    order: list[str] = field(default_factory=list)
    """Nodes in the order the reference entered them."""
    windows: dict[str, tuple[Number, Number]] = field(default_factory=dict)
    trace: Trace = field(default_factory=lambda: Trace(()))
    """The reference's trace, for what is looked up in it rarely (see :meth:`backup`)."""
    cutoffs: dict[str, tuple[Backup, Cutoff]] = field(default_factory=dict)
    """Each cut-off with the back-up that caused it, by the name of the node that cut."""
    unvisited: dict[str, Unvisited] = field(default_factory=dict)
    visited: set[str] = field(default_factory=set)
    """The nodes in ``order``."""
    evaluated: dict[str, str] = field(default_factory=dict)
    """The nodes the reference scores, each with the game request that scores it
    (``utility`` for a finished game, ``eval`` at a cut-off)."""

    def backup(self, child: str) -> Backup | None:
        """The (last) back-up of ``child`` into its parent: only the sentence on a missed
        node asks, once per judgement, so the trace is searched then."""
        for event in reversed(self.trace.events):
            if isinstance(event, Backup) and event.child == child:
                return event
        return None

    @property
    def windowed(self) -> bool:
        """True for a search with alpha-beta windows."""
        return bool(self.windows)


def read_reference(result: SearchResult, geometry: Geometry) -> ReferenceView:
    """Index ``result``'s trace and explain every node it never visited."""
    view = ReferenceView(trace=result.trace)
    order, windows = view.order, view.windows
    pruned_by: dict[str, str] = {}
    last_backup: Backup | None = None
    for event in result.trace:
        if type(event) is Enter:
            order.append(event.node)
            if event.alpha is not None and event.beta is not None:
                windows[event.node] = (event.alpha, event.beta)
        elif type(event) is Backup:
            last_backup = event
        elif type(event) is Evaluate:
            view.evaluated[event.node] = "utility" if event.source == "utility" else "eval"
        elif type(event) is Cutoff:
            assert last_backup is not None and last_backup.node == event.node
            view.cutoffs[event.node] = (last_backup, event)
            for child in event.pruned:
                pruned_by[child] = event.node
    view.visited = set(order)
    if len(view.visited) < len(geometry.names):
        _explain_unvisited(view, pruned_by, geometry, result.options.depth_limit)
    return view


def _explain_unvisited(
    view: ReferenceView, pruned_by: dict[str, str], geometry: Geometry, limit: int | None
) -> None:
    """Give the top node of every unvisited subtree its reason, and its whole subtree (a
    preorder interval) the same reason."""
    visited, unvisited = view.visited, view.unvisited
    tree, names, index, end = geometry.tree, geometry.names, geometry.index, geometry.end
    for name in view.order:
        for edge in tree[name].edges:
            child = edge.child
            if child in visited:
                continue
            if child in pruned_by:
                why = Unvisited("pruned", child)
            elif limit is not None and geometry.depth[name] >= limit:
                why = Unvisited("depth", name)
            else:
                why = Unvisited("other", child)
            at = index[child]
            unvisited.update(dict.fromkeys(names[at : end[at]], why))
