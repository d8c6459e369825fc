"""The first divergence: the earliest event where the student's search left the reference's.

The student's events are read in order against the reference's order of visits. The
first of these to go wrong is reported: a node searched again, a first visit that is not
the reference's next node (extra, out of order, or skipping one), a received window or
depth that differs, a returned value that is not allowed. If the events run out before the
reference's visits do, the next unvisited node is the divergence; if the search itself
matched, a wrong final answer is.

Rather than reading every event again, each kind of divergence is found where the
student's view says it can be (the first repeat, the first first-visit out of the
reference's order, the calls with wrong bounds, the returns) and the earliest one wins.
Until the first departure from the reference's order, the student's first visits are the
reference's, so how far the reference had got at any event is a count of first visits.
"""

from __future__ import annotations

from typing import Literal

from reference.feedback.answer import Answer
from reference.feedback.checks import Context
from reference.feedback.explain import extra_divergence, missed_divergence, order_divergence
from reference.feedback.verdicts import Divergence
from reference.observed import Return
from reference.values import format_value

Cause = Literal["repeated", "departure", "bounds", "unasked", "inside", "value"]
"""What went wrong first: a repeat, a first visit out of order, a window or depth, a node
visited without asking its value, a node that returned while the reference still searches
inside it, a value."""


def first_divergence(ctx: Context, answer: Answer) -> Divergence | None:
    """The earliest point where the student's search departs from the reference, or None."""
    student = ctx.student
    names, index = ctx.geometry.names, ctx.geometry.index
    first_seen = student.first_visit_in_preorder
    # Nodes by preorder position: the reference's order, and the student's first visits.
    expected_at = ctx.facts.order_positions
    ordered = ctx.geometry.order_judged
    if not ordered:
        # The order is not judged: the reference's nodes in the order the student's search
        # reached them, then those it never reached, so that only an extra node or a
        # missed one departs.
        expected_at = _in_student_order(student.visit_order, expected_at)
    visits = student.visit_positions  # first-visit positions, in the order of visit_order
    departs = _departure_index(student.visit_order, expected_at)
    limit = visits[departs] if departs < len(visits) else len(ctx.observed.events)
    cause: tuple[Cause, str] | None = None
    if departs < len(visits):
        cause = ("departure", names[student.visit_order[departs]])
    for name, position in student.repeated.items():
        if position < limit:
            limit, cause = position, ("repeated", name)
    calls = student.call_in_preorder
    for name in ctx.wrong_bounds:
        at = index[name]
        seen, called = first_seen[at], calls[at]
        if seen is None or called is None:
            continue  # calls before any visit are not judged
        # A call before the first visit is judged at the visit, once it matched.
        position = max(seen, called)
        if position < limit:
            limit, cause = position, ("bounds", name)
    unasked = None
    if ctx.unasked:
        unasked = min(ctx.unasked, key=ctx.student.first_visit_of)
        # The nodes the reference scores are never inside one another's subtrees, so the
        # search leaves them in the order it first visits them: the first one is left first.
        position = _left_at(ctx, unasked, limit)
        if position < limit:
            limit, cause = position, ("unasked", unasked)
    found = _first_wrong_return(ctx, visits[:departs], limit, ordered)
    if found is not None:
        limit, cause = found
    if cause is None and unasked is not None:  # the search ended inside it
        limit, cause = student.first_visit_of(unasked), ("unasked", unasked)
    if cause is not None:
        return _divergence(ctx, cause, limit, departs, expected_at)
    if departs < len(expected_at):
        node, message = missed_divergence(ctx, names[expected_at[departs]])
        return Divergence(node, message)
    if answer.message is not None:
        return Divergence(ctx.tree.root.name, answer.message)
    return None


def _left_at(ctx: Context, name: str, limit: int) -> int:
    """Where the student's search left ``name`` (returned from it, or asked about a node
    outside its subtree) after visiting it, if before ``limit``; else ``limit``."""
    index, end = ctx.geometry.index, ctx.geometry.end
    at, events = index[name], ctx.observed.events
    stop = end[at]
    for position in range(ctx.student.first_visit_of(name) + 1, min(limit, len(events))):
        event = events[position]
        other = index.get(event.node)
        if other is None:
            continue
        if not at <= other < stop or (other == at and type(event) is Return):
            return position
    return limit


def _in_student_order(order: list[int], expected: list[int]) -> list[int]:
    """The reference's nodes ``expected``, those the student reached first, in the order
    it reached them (``order``), then the others in the reference's order."""
    wanted = set(expected)
    reached = [at for at in order if at in wanted]
    seen = set(reached)
    return reached + [at for at in expected if at not in seen]


def _departure_index(order: list[int], expected: list[int]) -> int:
    """How many of the student's first visits follow the reference's order."""
    if order == expected[: len(order)]:
        return len(order)
    for at, node in enumerate(order):
        if at >= len(expected) or expected[at] != node:
            return at
    return len(order)


def _first_wrong_return(
    ctx: Context, visits: list[int], limit: int, ordered: bool = True
) -> tuple[int, tuple[Cause, str]] | None:
    """The earliest return before ``limit`` that is wrong, given the first visits that
    matched the reference (their positions, ``visits``). Nodes are taken by their preorder
    positions, as in the columns of the student's and the tree's facts. Where the order is
    not judged (``ordered`` false), a return is not compared with how far the reference
    had got, only its value is."""
    facts, student = ctx.facts, ctx.student
    names, end = facts.geometry.names, facts.geometry.end
    expected = facts.order_positions
    searched, first_visit = facts.searched_in_preorder, student.first_visit_in_preorder
    wrong_values = ctx.wrong_values
    visits = [*visits, limit]  # the last stops the count before any return considered
    reference_done = len(expected) if ordered else 0
    matched = 0
    # The first returns in the order of position, and where their nodes are.
    for position, at in zip(student.return_positions, student.return_order, strict=True):
        if position >= limit:
            return None
        while visits[matched] < position:
            matched += 1
        if not searched[at]:
            continue
        seen = first_visit[at]
        if seen is None or seen > position:
            continue  # only the returns of a node already visited are judged
        if matched < reference_done and at <= expected[matched] < end[at]:
            return position, ("inside", names[at])
        if wrong_values and names[at] in wrong_values:
            return position, ("value", names[at])
    return None


def _divergence(
    ctx: Context, cause: tuple[Cause, str], position: int, departs: int, expected: list[int]
) -> Divergence:
    """The divergence of ``cause`` at ``position``; ``expected``: the reference's nodes in
    the order it visits them (preorder positions)."""
    kind, name = cause
    names = ctx.geometry.names
    if kind == "repeated":
        return Divergence(name, _repeated_message(ctx, name, position), position)
    if kind == "departure":
        following = names[expected[departs]] if departs < len(expected) else None
        node, message = _departure(ctx, name, following)
        return Divergence(node, message, position)
    if kind == "unasked":
        return Divergence(name, ctx.unasked_message(name), position)
    if kind == "bounds":
        mismatch = ctx.bounds_mismatch(name)
    elif kind == "value":
        mismatch = ctx.value_mismatch(name)
    else:  # it returned while the reference still searches inside it
        matched = _visits_before(ctx, position)
        node, message = missed_divergence(ctx, names[expected[matched]])
        return Divergence(node, message, position)
    assert mismatch is not None
    differs = mismatch.bound if kind == "bounds" else "value"
    return Divergence(name, mismatch.message, position, differs)


def _visits_before(ctx: Context, position: int) -> int:
    return sum(1 for seen in ctx.student.visit_positions if seen < position)


def _departure(ctx: Context, name: str, expected: str | None) -> tuple[str, str]:
    """Why visiting ``name`` when the reference visits ``expected`` next is a departure."""
    if not ctx.facts.searched_in_preorder[ctx.geometry.index[name]] or expected is None:
        return extra_divergence(ctx, name)
    if ctx.student.visited(expected):
        return order_divergence(ctx, name, expected)
    return missed_divergence(ctx, expected)


def _repeated_message(ctx: Context, name: str, position: int) -> str:
    at = ctx.geometry.index[name]
    returned_at = ctx.student.return_in_preorder[at]
    value = ctx.student.returned_in_preorder[at]
    if returned_at is not None and returned_at < position and value is not None:
        return f"{name} was searched again after it had returned {format_value(value)}."
    return f"Your search came back to {name} after it had moved on from it."
