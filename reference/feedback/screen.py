"""One quick pass over every node that finds the few needing a closer look.

Most nodes of a large tree are fine: they received the reference's window and depth and
returned a value they may return. The checks in :mod:`reference.feedback.checks` explain
a difference in a sentence; the functions here only tell which nodes have one, cheaply
enough to run on every node of a tree with a million nodes. Each must agree exactly with
the check it screens for (``name in wrong_bounds(...)`` iff ``bounds_mismatch(name)``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from reference.feedback.values import Allowed, allowed_values, same
from reference.observed import Call, ObservedEvent
from reference.tree import Number


def allowed_table(
    names: Iterable[str],
    values: dict[str, Number],
    windows: dict[str, tuple[Number, Number]],
    *,
    prune_on_equality: bool,
) -> tuple[dict[str, Allowed], dict[str, Number]]:
    """What each of ``names`` (with a true value) may return, and those of them that must
    return their true value exactly (inside their window, or without one), with it.

    An :class:`Allowed` is immutable, so the exact answers for int values are shared
    rather than built once per node.
    """
    table: dict[str, Allowed] = {}
    exact: dict[str, Number] = {}
    shared: dict[int, Allowed] = {}
    for name in names:
        value = values.get(name)
        if value is None:
            continue
        window = windows.get(name)
        if window is not None:
            alpha, beta = window
            outside = (
                value <= alpha or value >= beta
                if prune_on_equality
                else value < alpha or value > beta
            )
            if outside:
                table[name] = allowed_values(value, window, prune_on_equality=prune_on_equality)
                continue
        exact[name] = value
        if type(value) is int:
            allowed = shared.get(value)
            if allowed is None:
                allowed = shared[value] = Allowed.exactly(value)
            table[name] = allowed
        else:
            table[name] = Allowed.exactly(value)
    return table, exact


def wrong_values(
    table: dict[str, Allowed], exact: dict[str, Number], returned: dict[str, Number | None]
) -> set[str]:
    """The nodes of ``table`` (see :func:`allowed_table`) that returned something else than
    they may (``name in wrong`` iff ``value_mismatch(name)``).

    A node that never returned is fine; one that returned None is not.
    """
    wrong: set[str] = set()
    exact_value, allowed_at = exact.get, table.get
    for name, got in returned.items():
        value = exact_value(name)  # a true value is never None
        if value is not None:
            # Equal numbers are always the same; only unequal ones need the tolerance.
            if got is None or not (got == value or same(got, value)):
                wrong.add(name)
            continue
        allowed = allowed_at(name)
        if allowed is not None and (got is None or not allowed.contains(got)):
            wrong.add(name)
    return wrong


def wrong_bounds(
    calls: dict[str, int],
    events: list[ObservedEvent],
    windows: dict[str, tuple[Number, Number]],
    expected_depth: Callable[[str], int | None],
) -> set[str]:
    """The nodes whose first call received another window or depth than the reference's.

    ``expected_depth`` gives the depth argument a node should receive (None: any).
    """
    wrong: set[str] = set()
    for name, position in calls.items():
        call = cast(Call, events[position])
        got_alpha, got_beta = call.alpha, call.beta
        window = windows.get(name)
        if window is not None and got_alpha is not None and got_beta is not None:
            alpha, beta = window
            # Equal numbers are always the same; only unequal ones need the tolerance.
            if not (
                (got_alpha == alpha or same(got_alpha, alpha))
                and (got_beta == beta or same(got_beta, beta))
            ):
                wrong.add(name)
                continue
        if call.depth is not None:
            depth = expected_depth(name)
            if depth is not None and call.depth != depth:
                wrong.add(name)
    return wrong
