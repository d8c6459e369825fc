"""What the student's search did, indexed by node: first visits, calls, returns, repeats.

A node is *finished* once the student's search has moved on from it: its entry function
returned, or the search asked about a node that is neither inside its subtree nor one of
its ancestors. Asking about a finished node again, or calling an entry function on it
again, searches it a second time (``repeated``). The open nodes form a chain from the root
down, kept as a stack, so the whole trace is read in one pass.

Everything is kept by the nodes' preorder positions, in columns of one entry per node and
lists in the order things happened: on a large tree, a dictionary by name for each of
them would cost more than the reading itself (each insertion and lookup by name touches
memory far apart). The dictionaries by name that sentences and rare checks read are made
when first asked for.
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
    """The student's search, indexed by node (event positions index ``Observed.events``;
    ``at``: a node's preorder position)."""

    events: list[ObservedEvent]
    """The events read (``Observed.events``)."""
    names: list[str]
    """The tree's node names in preorder (``Geometry.names``)."""
    index: dict[str, int]
    """Each node's preorder position (``Geometry.index``)."""
    visit_order: list[int] = field(default_factory=list)
    """The nodes (positions) in the order of their first visit."""
    visit_positions: list[int] = field(default_factory=list)
    """Where each first visit of ``visit_order`` is, in the same order."""
    call_order: list[int] = field(default_factory=list)
    """The nodes whose first call of an entry function received a bound or a depth, in the
    order of those calls (the others have nothing to judge)."""
    return_order: list[int] = field(default_factory=list)
    """The nodes in the order of their first return."""
    return_positions: list[int] = field(default_factory=list)
    """Where each first return of ``return_order`` is, in the same order."""
    repeated: dict[str, int] = field(default_factory=dict)
    """Where each node was first searched again after it was finished."""
    out_of_order: dict[str, str] = field(default_factory=dict)
    """For a node visited before a sibling that comes first in search order: that sibling."""
    visited_in_preorder: bytearray = field(default_factory=bytearray)
    """Non-zero for each node visited, in the tree's preorder (as the columns below: one
    entry per node)."""
    asked_in_preorder: bytearray = field(default_factory=bytearray)
    """Non-zero for each node whose value the search asked the game (``utility`` or
    ``eval``)."""
    first_visit_in_preorder: list[int | None] = field(default_factory=list)
    """Where each node's first visit is (None: never visited)."""
    call_in_preorder: list[int | None] = field(default_factory=list)
    """Where each node's first call is, if it received a bound or a depth."""
    returned_in_preorder: list[Number | None] = field(default_factory=list)
    """The value of each node's first return (None: none, or not a number)."""
    has_returned_in_preorder: bytearray = field(default_factory=bytearray)
    """Non-zero for each node that returned (its value may be None: not a number)."""
    return_in_preorder: list[int | None] = field(default_factory=list)
    """Where each node's first return is."""
    received_in_preorder: list[tuple[Number | None, Number | None] | None] = field(
        default_factory=list
    )
    """The (alpha, beta) of each node's first call, if it had a bound."""
    _first_visit: dict[str, int] | None = None
    _order: list[str] | None = None

    @property
    def first_visit(self) -> dict[str, int]:
        """Where each node's first visit is, in the order of the visits."""
        if self._first_visit is None:
            names = self.names
            self._first_visit = {
                names[at]: position
                for at, position in zip(self.visit_order, self.visit_positions, strict=True)
            }
        return self._first_visit

    @property
    def order(self) -> list[str]:
        """Nodes in the order of their first visit."""
        if self._order is None:
            self._order = list(map(self.names.__getitem__, self.visit_order))
        return self._order

    @property
    def calls(self) -> dict[str, int]:
        """Where the first call of an entry function on each node is, in the order of
        position, for the first calls that received a bound or a depth."""
        names, calls = self.names, self.call_in_preorder
        return {
            names[at]: position for at in self.call_order if (position := calls[at]) is not None
        }

    @property
    def returns(self) -> dict[str, int]:
        """Where the first return from each node is, in the order of position."""
        names = self.names
        return {
            names[at]: position
            for at, position in zip(self.return_order, self.return_positions, strict=True)
        }

    @property
    def returned(self) -> dict[str, Number | None]:
        """The value of each node's first return (None: not a number, see
        :meth:`first_return`), in the order of the returns."""
        names, returned = self.names, self.returned_in_preorder
        return {names[at]: returned[at] for at in self.return_order}

    @property
    def received(self) -> dict[str, tuple[Number | None, Number | None]]:
        """The (alpha, beta) of each first call that had a bound."""
        names, received = self.names, self.received_in_preorder
        return {names[at]: window for at in self.call_order if (window := received[at]) is not None}

    def visited(self, name: str) -> bool:
        """True when the student's code asked the game about ``name``."""
        at = self.index.get(name)
        return at is not None and self.first_visit_in_preorder[at] is not None

    def first_visit_of(self, name: str) -> int:
        """Where the first visit of ``name``, a node visited, is."""
        seen = self.first_visit_in_preorder[self.index[name]]
        assert seen is not None, name
        return seen

    def from_own_cache(self, name: str) -> bool:
        """True when an entry function was called on ``name`` and returned, but the game was
        never asked about it: the student's code answered from its own memo or cache."""
        at = self.index.get(name)
        return (
            at is not None
            and bool(self.has_returned_in_preorder[at])
            and self.first_visit_in_preorder[at] is None
        )

    def first_call(self, name: str) -> Call | None:
        """The first call of an entry function on ``name``, if it received a bound or a depth."""
        at = self.index.get(name)
        position = None if at is None else self.call_in_preorder[at]
        if position is None:
            return None
        call = self.events[position]
        assert isinstance(call, Call)
        return call

    def first_return(self, name: str) -> Return | None:
        """The first return from ``name``."""
        at = self.index.get(name)
        position = None if at is None else self.return_in_preorder[at]
        if position is None:
            return None
        returned = self.events[position]
        assert isinstance(returned, Return)
        return returned


def read_student(observed: Observed, geometry: Geometry) -> StudentView:
    """Index ``observed``; events about nodes that are not in the tree are ignored."""
    events = observed.events
    # Nodes are handled by preorder position here: a subtree is the interval
    # index <= i < end[index], so relatedness is two comparisons.
    index, end, names = geometry.index, geometry.end, geometry.names
    view = StudentView(events, names, index)
    count = len(end)
    state = bytearray(count)
    asked = bytearray(count)
    value_methods = VALUE_METHODS
    called = bytearray(count)
    has_returned = bytearray(count)
    returned_at: list[Number | None] = [None] * count
    received_at: list[tuple[Number | None, Number | None] | None] = [None] * count
    first_seen: list[int | None] = [None] * count
    call_at: list[int | None] = [None] * count
    return_at: list[int | None] = [None] * count
    visit_order, visit_positions = view.visit_order, view.visit_positions
    seeing, seen_at = visit_order.append, visit_positions.append
    return_order, return_positions = view.return_order, view.return_positions
    returning, returned_when = return_order.append, return_positions.append
    calling = view.call_order.append
    stack: list[int] = []  # the open nodes, the root at the bottom
    repeated = view.repeated
    position_of = index.get
    visit, call, return_ = Visit, Call, Return
    in_preorder = True  # whether the first visits come in the tree's preorder
    latest_first = -1
    generated = geometry.generated
    # A search's events come in runs about one node (its call, the game's questions about
    # it, its return), and the node of the next run is most often the innermost open one
    # (returned to) or the next in preorder (gone down to): those are tried by identity
    # before the node is looked up by name (a lookup touches memory far apart).
    last_name: object = None
    at: int | None = None
    ahead = 0  # the next node in preorder after the latest first visit
    for position, event in enumerate(events):
        name = event.node
        if name is not last_name:
            last_name = name
            if stack and name is names[stack[-1]]:
                at = stack[-1]
            elif ahead < count and name is names[ahead]:
                at = ahead
            else:
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
                    first_seen[at] = position
                    seeing(at)
                    seen_at(position)
                    if at < latest_first:
                        in_preorder = False
                    latest_first = at
                    ahead = at + 1
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
                        first_seen[at] = position
                        seeing(at)
                        seen_at(position)
                        if at < latest_first:
                            in_preorder = False
                        latest_first = at
                        ahead = at + 1
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
                first_seen[at] = position
                seeing(at)
                seen_at(position)
                if at < latest_first:
                    in_preorder = False
                latest_first = at
                ahead = at + 1
            else:
                repeated.setdefault(names[at], position)
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
                    call_at[at] = position
                    calling(at)
                    received_at[at] = (called_with.alpha, called_with.beta)
                elif called_with.depth is not None:
                    call_at[at] = position
                    calling(at)
            if state[at] == FINISHED:
                repeated.setdefault(names[at], position)
        elif kind is return_:
            if not has_returned[at]:
                has_returned[at] = 1
                return_at[at] = position
                returning(at)
                returned_when(position)
                returned_at[at] = event.value  # type: ignore[union-attr]  # a Return (kind)
            if state[at] == OPEN:
                if stack[-1] == at:  # the usual case: the innermost open node returns
                    stack.pop()
                    state[at] = FINISHED
                else:
                    _close_from(stack, state, at)
    view.visited_in_preorder = state
    view.asked_in_preorder = asked
    view.first_visit_in_preorder = first_seen
    view.call_in_preorder = call_at
    view.returned_in_preorder = returned_at
    view.has_returned_in_preorder = has_returned
    view.return_in_preorder = return_at
    view.received_in_preorder = received_at
    # Children first visited in preorder are visited in search order (left to right).
    if geometry.order_judged and (not in_preorder or geometry.order != "left-to-right"):
        view.out_of_order = _out_of_order(first_seen, geometry)
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


def _out_of_order(first_seen: list[int | None], geometry: Geometry) -> dict[str, str]:
    out: dict[str, str] = {}
    seen_at = first_seen.__getitem__
    index = geometry.index
    backwards = geometry.order != "left-to-right"
    for node in geometry.tree.nodes.values():
        edges = node.edges
        if len(edges) < 2:
            continue
        latest, latest_child = -1, ""
        for edge in reversed(edges) if backwards else edges:
            seen = seen_at(index[edge.child])
            if seen is None:
                continue
            if seen < latest:
                out[edge.child] = latest_child
            else:
                latest, latest_child = seen, edge.child
    return out
