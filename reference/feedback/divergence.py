"""The first divergence: the earliest event where the student's search left the reference's.

The student's events are read in order against the reference's order of visits. The
first of these to go wrong is reported: a node searched again, a first visit that is not
the reference's next node (extra, out of order, or skipping one), a received window or
depth that differs, a returned value that is not allowed. If the events run out before the
reference's visits do, the next unvisited node is the divergence; if the search itself
matched, a wrong final answer is.
"""

from __future__ import annotations

from reference.feedback.answer import Answer
from reference.feedback.checks import Context
from reference.feedback.explain import extra_divergence, missed_divergence, order_divergence
from reference.feedback.verdicts import Divergence
from reference.observed import Call, Visit
from reference.values import format_value


def first_divergence(ctx: Context, answer: Answer) -> Divergence | None:
    """The earliest point where the student's search departs from the reference, or None."""
    student = ctx.student
    expected = ctx.ref.order
    matched = 0
    repeated_at = {position: name for name, position in student.repeated.items()}
    for position, event in enumerate(ctx.observed.events):
        name = event.node
        if name not in ctx.tree:
            continue
        if repeated_at.get(position) == name:
            return Divergence(name, _repeated_message(ctx, name, position), position)
        seen = student.first_visit.get(name)
        if isinstance(event, Visit):
            if seen != position:
                continue
            if matched < len(expected) and expected[matched] == name:
                matched += 1
                call = student.calls.get(name)
                if call is not None and call[0] < position:
                    mismatch = ctx.bounds_mismatch(name)
                    if mismatch is not None:
                        return Divergence(name, mismatch.message, position)
                continue
            following = expected[matched] if matched < len(expected) else None
            node, message = _departure(ctx, name, following)
            return Divergence(node, message, position)
        if seen is None or seen > position:
            continue  # only the calls and returns of a node already visited are judged
        if isinstance(event, Call):
            if student.calls[name][0] == position:
                mismatch = ctx.bounds_mismatch(name)
                if mismatch is not None:
                    return Divergence(name, mismatch.message, position)
        elif student.returns[name][0] == position and name in ctx.ref_visited:
            following = expected[matched] if matched < len(expected) else None
            if following is not None and ctx.geometry.contains(name, following):
                # it returned while the reference still searches inside it
                node, message = missed_divergence(ctx, following)
                return Divergence(node, message, position)
            mismatch = ctx.value_mismatch(name)
            if mismatch is not None:
                return Divergence(name, mismatch.message, position)
    if matched < len(expected):
        node, message = missed_divergence(ctx, expected[matched])
        return Divergence(node, message)
    if answer.message is not None:
        return Divergence(ctx.tree.root.name, answer.message)
    return None


def _departure(ctx: Context, name: str, expected: str | None) -> tuple[str, str]:
    """Why visiting ``name`` when the reference visits ``expected`` next is a departure."""
    if name not in ctx.ref_visited or expected is None:
        return extra_divergence(ctx, name)
    if ctx.student.visited(expected):
        return order_divergence(ctx, name, expected)
    return missed_divergence(ctx, expected)


def _repeated_message(ctx: Context, name: str, position: int) -> str:
    returned = ctx.student.returns.get(name)
    if returned is not None and returned[0] < position and returned[1].value is not None:
        return f"{name} was searched again after it had returned {format_value(returned[1].value)}."
    return f"Your search came back to {name} after it had moved on from it."
