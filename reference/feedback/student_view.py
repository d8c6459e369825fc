"""What the student's search did, indexed by node: first visits, calls, returns, repeats.

A node is *finished* once the student's search has moved on from it: its entry function
returned, or the search asked about a node that is neither inside its subtree nor one of
its ancestors. Asking about a finished node again, or calling an entry function on it
again, searches it a second time (``repeated``). The open nodes form a chain from the root
down, kept as a stack, so the whole trace is read in one pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reference.feedback.geometry import Geometry
from reference.observed import Call, Observed, Return, Visit


@dataclass(slots=True)
class StudentView:
    """The student's search, indexed by node (event positions index ``Observed.events``)."""

    first_visit: dict[str, int] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    """Nodes in the order of their first visit."""
    calls: dict[str, tuple[int, Call]] = field(default_factory=dict)
    """The first call of an entry function on each node, with its position."""
    returns: dict[str, tuple[int, Return]] = field(default_factory=dict)
    """The first return from each node, with its position."""
    repeated: dict[str, int] = field(default_factory=dict)
    """Where each node was first searched again after it was finished."""
    out_of_order: dict[str, str] = field(default_factory=dict)
    """For a node visited before a sibling that comes first in search order: that sibling."""

    def visited(self, name: str) -> bool:
        """True when the student's code asked the game about ``name``."""
        return name in self.first_visit


def read_student(observed: Observed, geometry: Geometry) -> StudentView:
    """Index ``observed``; events about nodes that are not in the tree are ignored."""
    view = StudentView()
    stack: list[str] = []
    open_nodes: set[str] = set()
    finished: set[str] = set()

    def close_above(depth: int) -> None:
        while len(stack) > depth:
            name = stack.pop()
            open_nodes.discard(name)
            finished.add(name)

    index, end = geometry.index, geometry.end
    first_visit, calls, returns = view.first_visit, view.calls, view.returns
    for position, event in enumerate(observed.events):
        name = event.node
        at = index.get(name)
        if at is None:
            continue
        kind = type(event)
        if kind is Visit:
            if name not in first_visit:
                first_visit[name] = position
                view.order.append(name)
            keep = len(stack)
            while keep:
                other = index[stack[keep - 1]]
                if other <= at < end[other] or at <= other < end[at]:
                    break  # related: one holds the other in its subtree
                keep -= 1
            if keep < len(stack):
                close_above(keep)
            if name in open_nodes:
                continue
            if name in finished:
                view.repeated.setdefault(name, position)
                finished.discard(name)
            if stack and not (index[stack[-1]] <= at < end[index[stack[-1]]]):
                _open_above_descendants(stack, name, geometry)
            else:
                stack.append(name)
            open_nodes.add(name)
        elif kind is Call:
            assert isinstance(event, Call)
            calls.setdefault(name, (position, event))
            if name in finished and name not in open_nodes:
                view.repeated.setdefault(name, position)
        elif kind is Return:
            assert isinstance(event, Return)
            returns.setdefault(name, (position, event))
            if name in open_nodes:
                close_above(_position(stack, name))
    view.out_of_order = _out_of_order(view, geometry)
    return view


def _position(stack: list[str], name: str) -> int:
    """Where ``name`` is on the stack, looking from the top (where a returning node is)."""
    at = len(stack) - 1
    while stack[at] != name:
        at -= 1
    return at


def _open_above_descendants(stack: list[str], name: str, geometry: Geometry) -> None:
    """Put ``name``, asked about after a descendant of it, below its open descendants."""
    at = len(stack)
    while at and geometry.contains(name, stack[at - 1]):
        at -= 1
    stack.insert(at, name)


def _out_of_order(view: StudentView, geometry: Geometry) -> dict[str, str]:
    out: dict[str, str] = {}
    for node in geometry.tree:
        latest: tuple[int, str] | None = None
        for child in geometry.children(node.name):
            seen = view.first_visit.get(child)
            if seen is None:
                continue
            if latest is not None and seen < latest[0]:
                out[child] = latest[1]
            elif latest is None or seen > latest[0]:
                latest = (seen, child)
    return out
