"""What the reference search did, indexed for comparison: order, windows, cut-offs.

Besides reading the trace, this works out *why* the reference never visited a node: it
lies under a child cut off at some node (``pruned``) or below the depth limit (``depth``).

A trace holds about four events per node, read in one pass; nodes are kept by their
preorder positions where a dictionary by name is not needed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import repeat
from operator import setitem
from typing import Literal

from reference.feedback.columns import ByName
from reference.feedback.geometry import Geometry
from reference.search import Backup, Cutoff, Enter, Evaluate, Return, SearchResult, Trace
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
    order_positions: list[int] = field(default_factory=list)
    """The preorder position of each node of ``order``, in the same order."""
    searched_in_preorder: bytearray = field(default_factory=bytearray)
    """1 for each node in ``order``, 0 for the others, in preorder."""
    unvisited_in_preorder: list[Unvisited | None] = field(default_factory=list)
    """Why the reference never visited each node it never visited (None for the others)."""
    unvisited: Mapping[str, Unvisited] = field(default_factory=dict)
    """The same by node name."""
    evaluated_order: list[int] = field(default_factory=list)
    """The nodes the reference scores (preorder positions), in the order it scores them."""
    evaluated_requests: list[str] = field(default_factory=list)
    """The game request that scores each of ``evaluated_order`` (``utility`` for a finished
    game, ``eval`` at a cut-off)."""
    _visited: set[str] | None = None

    @property
    def visited(self) -> set[str]:
        """The nodes in ``order``."""
        if self._visited is None:
            self._visited = set(self.order)
        return self._visited

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
    order, windows, cutoffs = view.order, view.windows, view.cutoffs
    enter, score = order.append, view.evaluated_order.append
    requests = view.evaluated_requests.append
    pruned_by: dict[str, str] = {}
    last_backup: Backup | None = None
    for event in result.trace.events:
        kind = type(event)
        if kind is Enter:
            enter(event.node)
            if event.alpha is not None and event.beta is not None:  # type: ignore[union-attr]
                windows[event.node] = (event.alpha, event.beta)  # type: ignore[union-attr]
        elif kind is Return:
            continue
        elif kind is Backup:
            last_backup = event  # type: ignore[assignment]  # a Backup (kind)
        elif kind is Evaluate:
            # A node is scored right after it is entered: its place in ``order`` is known.
            assert order and event.node == order[-1]
            score(len(order) - 1)
            requests("utility" if event.source == "utility" else "eval")  # type: ignore[union-attr]
        elif kind is Cutoff:
            assert last_backup is not None and last_backup.node == event.node
            cutoffs[event.node] = (last_backup, event)  # type: ignore[assignment]
            for child in event.pruned:  # type: ignore[union-attr]
                pruned_by[child] = event.node
    names = geometry.names
    total = len(names)
    view.unvisited_in_preorder = [None] * total
    view.unvisited = ByName(names, geometry.index, view.unvisited_in_preorder)
    if order == names:  # every node, in preorder (a search that prunes nothing)
        view.order_positions = list(range(total))
        view.searched_in_preorder = bytearray(b"\x01") * total
    else:
        view.order_positions = list(map(geometry.index.__getitem__, order))
        searched = view.searched_in_preorder = bytearray(total)
        deque(map(setitem, repeat(searched), view.order_positions, repeat(1)), 0)
        if searched.count(1) < total:
            _explain_unvisited(view, pruned_by, geometry, result.options.depth_limit)
    # Each scored node by its preorder position.
    view.evaluated_order = list(map(view.order_positions.__getitem__, view.evaluated_order))
    return view


def _explain_unvisited(
    view: ReferenceView, pruned_by: dict[str, str], geometry: Geometry, limit: int | None
) -> None:
    """Give the top node of every unvisited subtree its reason, and its whole subtree (a
    preorder interval) the same reason."""
    searched, unvisited = view.searched_in_preorder, view.unvisited_in_preorder
    tree, names, end = geometry.tree, geometry.names, geometry.end
    for name, at in zip(view.order, view.order_positions, strict=True):
        child_at = at + 1
        for edge in tree[names[at]].edges:
            # The children's subtrees follow one another in preorder.
            child, here = edge.child, child_at
            child_at = end[here]
            if searched[here]:
                continue
            if child in pruned_by:
                why = Unvisited("pruned", child)
            elif limit is not None and geometry.depth[name] >= limit:
                why = Unvisited("depth", name)
            else:
                why = Unvisited("other", child)
            unvisited[here : end[here]] = repeat(why, end[here] - here)
