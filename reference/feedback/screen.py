"""One quick pass over every node that finds the few needing a closer look.

Most nodes of a large tree are fine: they received the reference's window and depth and
returned a value they may return. The checks in :mod:`reference.feedback.checks` explain
a difference in a sentence; the functions here only tell which nodes have one, cheaply
enough to run on every node of a tree with a million nodes. Each must agree exactly with
the check it screens for (``name in wrong_bounds(...)`` iff ``bounds_mismatch(name)``).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from typing import cast

from reference.feedback.values import Allowed, allowed_values, same
from reference.observed import Call, ObservedEvent
from reference.tree import Number


def allowed_columns(
    values: list[Number | None],
    windows: list[tuple[Number, Number] | None],
    searched: bytes | bytearray,
    *,
    prune_on_equality: bool,
) -> tuple[list[Allowed | None], list[Number | None]]:
    """What each node may return, and the true value of those that must return it exactly
    (searched inside their window, or without one), from columns of one entry per node:
    the true values, the reference's windows, and whether the reference visits the node.
    A node the reference does not visit, or without a true value, gets None in both.

    An :class:`Allowed` is immutable, so the exact answers for int values are shared
    rather than built once per node.
    """
    allowed: list[Allowed | None] = []
    exact: list[Number | None] = []
    add, add_exact = allowed.append, exact.append
    shared: dict[int, Allowed] = {}
    for value, window, visited in zip(values, windows, searched, strict=True):
        if value is None or not visited:
            add(None)
            add_exact(None)
            continue
        if window is not None:
            alpha, beta = window
            outside = (
                value <= alpha or value >= beta
                if prune_on_equality
                else value < alpha or value > beta
            )
            if outside:
                add(allowed_values(value, window, prune_on_equality=prune_on_equality))
                add_exact(None)
                continue
        add_exact(value)
        if type(value) is int:
            one = shared.get(value)
            if one is None:
                one = shared[value] = Allowed.exactly(value)
            add(one)
        else:
            add(Allowed.exactly(value))
    return allowed, exact


def wrong_values(
    names: list[str],
    returned: list[Number | None],
    has_returned: bytes | bytearray,
    allowed: list[Allowed | None],
    exact: list[Number | None],
) -> set[str]:
    """The nodes that returned something else than they may (``name in wrong`` iff
    ``value_mismatch(name)``), from columns of one entry per node: the first value each
    returned and whether it returned at all, and :func:`allowed_columns`.

    A node that never returned is fine; one that returned None is not.
    """
    wrong: set[str] = set()
    rows = compress(zip(names, returned, allowed, exact, strict=True), has_returned)
    for name, got, can, value in rows:
        if can is None:
            continue
        if value is not None:
            # Equal numbers are always the same; only unequal ones need the tolerance.
            if got is None or not (got == value or same(got, value)):
                wrong.add(name)
        elif got is None or not can.contains(got):
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
