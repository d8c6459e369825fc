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
) -> tuple[list[Allowed | None], list[Number | None], list[tuple[str, str] | None]]:
    """What each node may return, the true value of those that must return it exactly
    (searched inside their window, or without one), and what the first says in a verdict's
    sentence, from columns of one entry per node: the true values, the reference's windows,
    and whether the reference visits the node. A node the reference does not visit, or
    without a true value, gets None in all three.

    The sentence's part is the values (``3``, ``[2, 3)``) and, after a value returned,
    what it was to be within (``, within [2, 3)``, or nothing for one value).

    An :class:`Allowed` is immutable, so the exact answers for int values (and their texts)
    are shared rather than built once per node.
    """
    count = len(values)
    if windows.count(None) == count and searched.count(0) == 0 and set(map(type, values)) == {int}:
        # The usual search without windows: every node exact, every value an int.
        ints = cast(list[int], values)
        shared = {value: Allowed.exactly(value) for value in set(ints)}
        texts = {value: _texts(one) for value, one in shared.items()}
        return (
            list(map(shared.__getitem__, ints)),
            list(values),
            list(map(texts.__getitem__, ints)),
        )
    allowed: list[Allowed | None] = []
    exact: list[Number | None] = []
    described: list[tuple[str, str] | None] = []
    add, add_exact, add_text = allowed.append, exact.append, described.append
    shared_ints: dict[int, tuple[Allowed, tuple[str, str]]] = {}
    for value, window, visited in zip(values, windows, searched, strict=True):
        if value is None or not visited:
            add(None)
            add_exact(None)
            add_text(None)
            continue
        if window is not None:
            alpha, beta = window
            outside = (
                value <= alpha or value >= beta
                if prune_on_equality
                else value < alpha or value > beta
            )
            if outside:
                can = allowed_values(value, window, prune_on_equality=prune_on_equality)
                add(can)
                add_exact(None)
                add_text(_texts(can))
                continue
        add_exact(value)
        if type(value) is int:
            one = shared_ints.get(value)
            if one is None:
                made = Allowed.exactly(value)
                one = shared_ints[value] = (made, _texts(made))
            add(one[0])
            add_text(one[1])
        else:
            made = Allowed.exactly(value)
            add(made)
            add_text(_texts(made))
    return allowed, exact, described


def _texts(allowed: Allowed) -> tuple[str, str]:
    """What ``allowed`` says, and the end of a sentence on a value returned within it."""
    expected = allowed.describe()
    return expected, "" if allowed.exact else f", within {expected}"


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
    call_order: list[int],
    calls: list[int | None],
    names: list[str],
    events: list[ObservedEvent],
    windows: list[tuple[Number, Number] | None],
    expected_depth: Callable[[str], int | None],
) -> set[str]:
    """The nodes whose first call received another window or depth than the reference's,
    from the nodes whose first call received one (``call_order``, preorder positions) and
    columns of one entry per node: where that call is, the node's name and the reference's
    window.

    ``expected_depth`` gives the depth argument a node should receive (None: any).
    """
    wrong: set[str] = set()
    for at in call_order:
        call = cast(Call, events[cast(int, calls[at])])
        got_alpha, got_beta = call.alpha, call.beta
        window = windows[at]
        if window is not None and got_alpha is not None and got_beta is not None:
            alpha, beta = window
            # Equal numbers are always the same; only unequal ones need the tolerance.
            if not (
                (got_alpha == alpha or same(got_alpha, alpha))
                and (got_beta == beta or same(got_beta, beta))
            ):
                wrong.add(names[at])
                continue
        if call.depth is not None:
            depth = expected_depth(names[at])
            if depth is not None and call.depth != depth:
                wrong.add(names[at])
    return wrong
