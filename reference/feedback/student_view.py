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
from reference.observed import GENERATE, Call, Observed, ObservedEvent, Return, Visit
from reference.tree import Number

NEVER, OPEN, FINISHED, GENERATED = 0, 1, 2, 4
"""The states of a node while the trace is read (a node once visited is open or finished;
one whose state was only generated, where generating counts as reaching it, is
``GENERATED`` until the search asks about it)."""

VALUE_METHODS = frozenset({"utility", "eval"})
"""The game requests that ask what a node is worth."""


@dataclass(slots=True)
class StudentView:
    """The student's search, indexed by node (event positions index ``Observed.events``)."""

    events: list[ObservedEvent] = field(default_factory=list)
    """The events read (``Observed.events``)."""
    first_visit: dict[str, int] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    """Nodes in the order of their first visit."""
    calls: dict[str, int] = field(default_factory=dict)
    """Where the first call of an entry function on each node is, in the order of position,
    for the first calls that received a bound or a depth (the others have nothing to judge)."""
    returns: dict[str, int] = field(default_factory=dict)
    """Where the first return from each node is, in the order of position."""
    returned: dict[str, Number | None] = field(default_factory=dict)
    """The value of each node's first return (None: not a number, see :meth:`first_return`)."""
    received: dict[str, tuple[Number | None, Number | None]] = field(default_factory=dict)
    """The (alpha, beta) of each first call that had a bound."""
    repeated: dict[str, int] = field(default_factory=dict)
    """Where each node was first searched again after it was finished."""
    out_of_order: dict[str, str] = field(default_factory=dict)
    """For a node visited before a sibling that comes first in search order: that sibling."""
    visited_in_preorder: bytearray = field(default_factory=bytearray)
    asked_in_preorder: bytearray = field(default_factory=bytearray)
    """Non-zero for each node whose value the search asked the game (``utility`` or
    ``eval``), in the tree's preorder."""
    """Non-zero for each node visited, in the tree's preorder (as the columns below: what
    the dictionaries say, for every node)."""
    returned_in_preorder: list[Number | None] = field(default_factory=list)
    has_returned_in_preorder: bytearray = field(default_factory=bytearray)
    """Non-zero for each node that returned (its value may be None: not a number)."""
    first_visit_in_preorder: list[int | None] = field(default_factory=list)
    returns_in_preorder: list[int] = field(default_factory=list)
    """The preorder position of each node of ``returns``, in the same order."""
    received_in_preorder: list[tuple[Number | None, Number | None] | None] = field(
        default_factory=list
    )

    def visited(self, name: str) -> bool:
        """True when the student's code asked the game about ``name``."""
        return name in self.first_visit

    def from_own_cache(self, name: str) -> bool:
        """True when an entry function was called on ``name`` and returned, but the game was
        never asked about it: the student's code answered from its own memo or cache."""
        return name in self.returns and name not in self.first_visit

    def first_call(self, name: str) -> Call | None:
        """The first call of an entry function on ``name``, if it received a bound or a depth."""
        position = self.calls.get(name)
        if position is None:
            return None
        call = self.events[position]
        assert isinstance(call, Call)
        return call

    def first_return(self, name: str) -> Return | None:
        """The first return from ``name``."""
        position = self.returns.get(name)
        if position is None:
            return None
        returned = self.events[position]
        assert isinstance(returned, Return)
        return returned


def read_student(observed: Observed, geometry: Geometry) -> StudentView:
    """Index ``observed``; events about nodes that are not in the tree are ignored."""
    view = StudentView(observed.events)
    # Nodes are handled by preorder position here: a subtree is the interval
    # index <= i < end[index], so relatedness is two comparisons.
    index, end = geometry.index, geometry.end
    count = len(end)
    state = bytearray(count)
    asked = bytearray(count)
    value_methods = VALUE_METHODS
    called = bytearray(count)
    has_returned = bytearray(count)
    returned_at: list[Number | None] = [None] * count
    received_at: list[tuple[Number | None, Number | None] | None] = [None] * count
    first_seen: list[int | None] = [None] * count
    returns_at: list[int] = []
    returning = returns_at.append
    stack: list[int] = []  # the open nodes, the root at the bottom
    first_visit, calls, returns = view.first_visit, view.calls, view.returns
    returned, received, repeated = view.returned, view.received, view.repeated
    position_of = index.get
    visit, call, return_ = Visit, Call, Return
    in_preorder = True  # whether the first visits come in the tree's preorder
    latest_first = -1
    generated = geometry.generated
    for position, event in enumerate(observed.events):
        name = event.node
        at = position_of(name)
        if at is None:
            continue
        kind = type(event)
        if kind is visit:
            method = event.method  # type: ignore[union-attr]  # a Visit (kind)
            if method == GENERATE:
                # Reached, in the order generated; searched once the game is asked about
                # it (so that generating every child before searching any is no repeat).
                if generated and first_seen[at] is None:
                    first_visit[name] = first_seen[at] = position
                    if at < latest_first:
                        in_preorder = False
                    latest_first = at
                    state[at] = GENERATED
                continue
            if method in value_methods:
                asked[at] = 1
            if stack:
                top = stack[-1]
                if top == at:
                    continue  # asked about the innermost open node again
                if top <= at < end[top]:
                    if state[at] == NEVER:  # the usual case: going down to a new node
                        first_visit[name] = first_seen[at] = position
                        if at < latest_first:
                            in_preorder = False
                        latest_first = at
                        stack.append(at)
                        state[at] = OPEN
                        continue
                    if state[at] == GENERATED:  # going down to a node generated earlier
                        stack.append(at)
                        state[at] = OPEN
                        continue
                elif not (at <= top < end[at]):
                    _close_unrelated(stack, state, at, end)
            status = state[at]
            if status == OPEN:
                continue
            if status == GENERATED:
                pass
            elif status == NEVER:
                first_visit[name] = first_seen[at] = position
                if at < latest_first:
                    in_preorder = False
                latest_first = at
            else:
                repeated.setdefault(name, position)
            if stack and not (stack[-1] <= at < end[stack[-1]]):
                _open_above_descendants(stack, at, end)
            else:
                stack.append(at)
            state[at] = OPEN
        elif kind is call:
            if not called[at]:
                called[at] = 1
                called_with: Call = event  # type: ignore[assignment]  # it is one (kind)
                if called_with.alpha is not None or called_with.beta is not None:
                    calls[name] = position
                    window = (called_with.alpha, called_with.beta)
                    received[name] = received_at[at] = window
                elif called_with.depth is not None:
                    calls[name] = position
            if state[at] == FINISHED:
                repeated.setdefault(name, position)
        elif kind is return_:
            if not has_returned[at]:
                has_returned[at] = 1
                returns[name] = position
                returning(at)
                returned_from: Return = event  # type: ignore[assignment]  # it is one (kind)
                returned[name] = returned_at[at] = returned_from.value
            if state[at] == OPEN:
                if stack[-1] == at:  # the usual case: the innermost open node returns
                    stack.pop()
                    state[at] = FINISHED
                else:
                    _close_from(stack, state, at)
    view.visited_in_preorder = state
    view.asked_in_preorder = asked
    view.returned_in_preorder = returned_at
    view.has_returned_in_preorder = has_returned
    view.first_visit_in_preorder = first_seen
    view.returns_in_preorder = returns_at
    view.received_in_preorder = received_at
    view.order = list(first_visit)  # a dict keeps its insertion order: first visits
    # Children first visited in preorder are visited in search order (left to right).
    if geometry.order_judged and (not in_preorder or geometry.order != "left-to-right"):
        view.out_of_order = _out_of_order(first_visit, geometry)
    return view


def _close_unrelated(stack: list[int], state: bytearray, at: int, end: list[int]) -> None:
    """Finish the open nodes above the deepest one related to the node at ``at``."""
    while stack:
        other = stack[-1]
        if other <= at < end[other] or at <= other < end[at]:
            break  # related: one holds the other in its subtree
        state[stack.pop()] = FINISHED


def _close_from(stack: list[int], state: bytearray, at: int) -> None:
    """Finish the open node at ``at`` and every open node above it on the stack."""
    while True:
        top = stack.pop()
        state[top] = FINISHED
        if top == at:
            return


def _open_above_descendants(stack: list[int], at: int, end: list[int]) -> None:
    """Put the node at ``at``, asked about after a descendant of it, below its open
    descendants."""
    below = len(stack)
    while below and at <= stack[below - 1] < end[at]:
        below -= 1
    stack.insert(below, at)


def _out_of_order(first_visit: dict[str, int], geometry: Geometry) -> dict[str, str]:
    out: dict[str, str] = {}
    seen_at = first_visit.get
    backwards = geometry.order != "left-to-right"
    for node in geometry.tree.nodes.values():
        edges = node.edges
        if len(edges) < 2:
            continue
        latest, latest_child = -1, ""
        for edge in reversed(edges) if backwards else edges:
            seen = seen_at(edge.child)
            if seen is None:
                continue
            if seen < latest:
                out[edge.child] = latest_child
            else:
                latest, latest_child = seen, edge.child
    return out
