"""The one search loop every reference algorithm shares.

The loop is iterative (an explicit stack of frames), so trees of any depth are searched
without recursion. An algorithm is a subclass of :class:`SearchEngine` that says how a node
starts, which window each child gets, how a child's value is backed up, and when a node
may stop early; the loop emits the trace events.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar, Literal

from reference.search.trace import Backup, Cutoff, Enter, Evaluate, Event, Return, Trace
from reference.tree import Edge, Kind, Node, Number, Tree
from reference.values import normalize

Order = Literal["left-to-right", "right-to-left"]


class SearchError(ValueError):
    """Raised when an algorithm cannot search a tree (a chance node in minimax, say)."""


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """The conventions of a search.

    ``prune_on_equality`` selects AIMA's rule (cut when v >= beta at MAX, v <= alpha at MIN);
    False selects the strict rule of the Berkeley CS188 projects (v > beta, v < alpha).
    ``order`` is the order children are searched in. ``depth_limit`` cuts the search at that
    depth (the root is at depth 0) and scores the nodes there by their heuristic.

    Two conventions only the judge of a student's search reads (the reference search is
    the same either way): ``order_judged``, whether a child searched before a sibling that
    comes first in ``order`` is a mistake (CS188 compares the set of generated states, not
    their order); ``generation``, what counts as reaching a node (see
    :data:`reference.contracts.Generation`).
    """

    prune_on_equality: bool = True
    order: Order = "left-to-right"
    depth_limit: int | None = None
    order_judged: bool = True
    generation: Literal["visit", "generated"] = "visit"


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a reference search found: the root's value, the decision and the whole trace."""

    algorithm: str
    value: Number
    decision: str | None
    trace: Trace
    options: SearchOptions


@dataclass(slots=True)
class Frame:
    """A node being searched: its running value, window and progress through its children."""

    node: Node
    depth: int
    edges: tuple[Edge, ...]
    value: Number
    alpha: Number | None = None
    beta: Number | None = None
    index: int = 0
    best: str | None = None
    child: Node | None = None
    """The child searched last."""

    @property
    def edge(self) -> Edge:
        """The edge to the child searched last."""
        return self.edges[self.index - 1]


class SearchEngine(ABC):
    """A reference search algorithm. Subclasses fill in the hooks; :meth:`run` searches."""

    name: ClassVar[str]
    summary: ClassVar[str]
    kinds: ClassVar[frozenset[Kind]] = frozenset({Kind.MAX, Kind.MIN})
    """The internal node kinds this algorithm can search."""

    def __init__(self, options: SearchOptions | None = None) -> None:
        self.options = options or SearchOptions()

    # -- hooks ---------------------------------------------------------------------------

    @abstractmethod
    def start(self, frame: Frame) -> None:
        """Set the frame's initial value (and nothing else)."""

    @abstractmethod
    def back_up(self, frame: Frame, child_value: Number) -> None:
        """Take in the value of the child searched last (``frame.edge``)."""

    def root_window(self, root: Node) -> tuple[Number | None, Number | None]:
        """The window the root is searched with (none by default)."""
        return None, None

    def child_window(self, frame: Frame, child: Node) -> tuple[Number | None, Number | None]:
        """The window ``child`` is searched with (none by default)."""
        return None, None

    def cutoff(self, frame: Frame) -> tuple[str, Number] | None:
        """The rule and bound that let this node stop now, or None to go on."""
        return None

    def narrow(self, frame: Frame) -> None:
        """Update the frame's window after a back-up that did not cut off."""

    def score(self, node: Node, value: Number, parent: Frame | None) -> Number:
        """The value of a scored node as this algorithm reports it (MAX's view by default)."""
        return value

    def check(self, tree: Tree) -> None:
        """Refuse a tree this algorithm cannot search."""
        for node in tree:
            if not node.is_leaf and node.kind not in self.kinds:
                allowed = ", ".join(sorted(self.kinds))
                raise SearchError(
                    f"{self.name} cannot search {node.kind} node {node.name!r} "
                    f"(it handles {allowed} nodes)"
                )

    # -- the loop ------------------------------------------------------------------------

    def run(self, tree: Tree) -> SearchResult:
        """Search ``tree`` from its root and return the value, decision and trace."""
        self.check(tree)
        events: list[Event] = []
        stack: list[Frame] = []
        alpha, beta = self.root_window(tree.root)
        returned = self._enter(tree.root, 0, alpha, beta, None, stack, events)
        root_frame = stack[0] if stack else None
        while stack:
            frame = stack[-1]
            if returned is not None:
                self._back_up(frame, returned, events)
                returned = None
            if frame.index < len(frame.edges):
                child = tree[frame.edges[frame.index].child]
                frame.index += 1
                frame.child = child
                alpha, beta = self.child_window(frame, child)
                returned = self._enter(child, frame.depth + 1, alpha, beta, frame, stack, events)
            else:
                stack.pop()
                returned = normalize(frame.value)
                events.append(Return(frame.node.name, returned))
        assert returned is not None
        decision = root_frame.best if root_frame is not None else None
        return SearchResult(self.name, returned, decision, Trace(tuple(events)), self.options)

    def _enter(
        self,
        node: Node,
        depth: int,
        alpha: Number | None,
        beta: Number | None,
        parent: Frame | None,
        stack: list[Frame],
        events: list[Event],
    ) -> Number | None:
        """Enter a node: score it at once (returning its value) or push a frame for it."""
        events.append(Enter(node.name, node.kind, depth, alpha, beta))
        limit = self.options.depth_limit
        if node.is_leaf or node.is_frontier or (limit is not None and depth >= limit):
            value = self.score(node, self._static_value(node, depth), parent)
            source: Literal["utility", "heuristic"] = "utility" if node.is_leaf else "heuristic"
            events.append(Evaluate(node.name, value, source))
            events.append(Return(node.name, value))
            return value
        edges = node.edges if self.options.order == "left-to-right" else node.edges[::-1]
        frame = Frame(node, depth, edges, 0, alpha, beta)
        self.start(frame)
        stack.append(frame)
        return None

    @staticmethod
    def _static_value(node: Node, depth: int) -> Number:
        if node.is_leaf:
            assert node.utility is not None
            return node.utility
        if node.heuristic is None:
            raise SearchError(
                f"the search is cut off at {node.name!r} (depth {depth}), "
                "but that node has no heuristic value"
            )
        return node.heuristic

    def _back_up(self, frame: Frame, child_value: Number, events: list[Event]) -> None:
        self.back_up(frame, child_value)
        cut = self.cutoff(frame)
        if cut is None:
            self.narrow(frame)
        child = frame.edge.child
        events.append(
            Backup(
                frame.node.name, child, child_value, normalize(frame.value), frame.alpha, frame.beta
            )
        )
        if cut is not None:
            rule, bound = cut
            pruned = tuple(edge.child for edge in frame.edges[frame.index :])
            if pruned:
                events.append(Cutoff(frame.node.name, normalize(frame.value), rule, bound, pruned))
            frame.index = len(frame.edges)


def better(kind: Kind, value: Number, than: Number) -> bool:
    """True when ``value`` improves on ``than`` for the player of ``kind``."""
    return value > than if kind is Kind.MAX else value < than
