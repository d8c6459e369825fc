"""True node values, and which values a search may return at a node.

A node's *true value* is its full minimax (expectiminimax) value, computed here bottom-up
from the tree itself, never taken from a search's returned values. What a search may
return at a node depends on the window it searched the node with (Knuth and Moore's
bounds): inside the window only the true value will do; outside it, any value between the
true value and the bound it fails on, so that fail-soft and fail-hard searches both pass.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from operator import attrgetter

from reference.search.negamax import mover, sign
from reference.tree import Edge, Kind, Node, Number, Tree
from reference.values import format_value, normalize

REL_TOLERANCE = 1e-9
ABS_TOLERANCE = 1e-9
"""How far apart two numbers may be and still count as the same, when either is a float."""


def show(value: Number | None) -> str:
    """:func:`~reference.values.format_value`, with a shortcut for the common int."""
    return str(value) if type(value) is int else format_value(value)


def same(x: Number, y: Number) -> bool:
    """True when ``x`` and ``y`` are equal: exactly for ints and Fractions, nearly for floats."""
    if isinstance(x, float) or isinstance(y, float):
        try:
            return math.isclose(float(x), float(y), rel_tol=REL_TOLERANCE, abs_tol=ABS_TOLERANCE)
        except OverflowError:  # an int too large for a float is far from any float value
            return False
    return x == y


def at_most(x: Number, y: Number) -> bool:
    """``x <= y``, with the tolerance of :func:`same`."""
    return x <= y or same(x, y)


@dataclass(frozen=True, slots=True)
class Allowed:
    """The values a node may return: the interval from ``low`` to ``high``.

    An open end excludes its bound (the strict pruning rule makes the outside of a window
    open: a strict search that fails low returns a value below alpha, never alpha itself).
    ``low == high`` (both ends closed) means exactly one value.
    """

    low: Number
    high: Number
    low_open: bool = False
    high_open: bool = False

    @classmethod
    def exactly(cls, value: Number) -> Allowed:
        """Only ``value`` itself."""
        return cls(value, value)

    @property
    def exact(self) -> bool:
        """True when one value only is allowed."""
        return self.low == self.high and not (self.low_open or self.high_open)

    def contains(self, value: Number) -> bool:
        """True when a search may return ``value``."""
        if self.exact:
            return same(value, self.low)
        above = value > self.low if self.low_open else at_most(self.low, value)
        below = value < self.high if self.high_open else at_most(value, self.high)
        return above and below

    def describe(self) -> str:
        """``3`` for one value, ``[2, 3]`` or ``[2, 3)`` for an interval."""
        if self.exact:
            return show(self.low)
        left = "(" if self.low_open else "["
        right = ")" if self.high_open else "]"
        return f"{left}{show(self.low)}, {show(self.high)}{right}"


def allowed_values(
    true_value: Number,
    window: tuple[Number, Number] | None,
    *,
    prune_on_equality: bool = True,
) -> Allowed:
    """What a search may return at a node worth ``true_value`` searched with ``window``.

    With AIMA's rule (prune on equality) the window is open: alpha < m < beta requires m,
    m <= alpha allows [m, alpha] and m >= beta allows [beta, m]. With the strict rule the
    window is closed: alpha <= m <= beta requires m, m < alpha allows [m, alpha) and
    m > beta allows (beta, m]. Without a window only the true value will do.
    """
    if window is None:
        return Allowed.exactly(true_value)
    alpha, beta = window
    if prune_on_equality:
        if true_value <= alpha:
            return Allowed(true_value, alpha)
        if true_value >= beta:
            return Allowed(beta, true_value)
    else:
        if true_value < alpha:
            return Allowed(true_value, alpha, high_open=True)
        if true_value > beta:
            return Allowed(beta, true_value, low_open=True)
    return Allowed.exactly(true_value)


_edges = attrgetter("edges")


def true_values(tree: Tree, depth_limit: int | None = None) -> dict[str, Number]:
    """The expectiminimax value of every node (from MAX's point of view), bottom-up.

    With ``depth_limit`` a node at that depth is worth its heuristic, as are frontier nodes
    anywhere; nodes below the limit get no value. A node whose value cannot be computed (a
    cut-off node without a heuristic) is left out, with its ancestors.
    """
    values = true_value_column(tree, depth_limit=depth_limit)
    # Children before their parents (reversed preorder), as they are worked out.
    return {
        name: value
        for name, value in zip(reversed(list(tree.nodes)), reversed(values), strict=True)
        if value is not None
    }


def true_value_column(
    tree: Tree, children: list[int] | None = None, depth_limit: int | None = None
) -> list[Number | None]:
    """:func:`true_values` as a column: one entry per node, in preorder, None for a node
    left out. ``children``: how many children each node has, in preorder, if known.

    The tree is read backwards, where a node's children are the subtrees read just before
    it: their values are the top of a stack, the first child on top (as in
    :class:`~reference.feedback.geometry.Geometry`); no node is looked up by name.
    """
    nodes = list(tree.nodes.values())
    if children is None:
        children = list(map(len, map(_edges, nodes)))
    if depth_limit is not None:
        return _limited_column(nodes, children, depth_limit)
    column: list[Number | None] = [None] * len(nodes)
    read: list[Number | None] = []
    push = read.append
    leaf, chance, top = Kind.LEAF, Kind.CHANCE, Kind.MAX  # looked up once, not per node
    for i in range(len(nodes) - 1, -1, -1):
        node, k = nodes[i], children[i]
        value: Number | None
        if not k:
            value = node.utility if node.kind is leaf else node.heuristic
        else:
            below = read[-k:]  # the last child first
            del read[-k:]
            kind = node.kind
            if kind is leaf:
                value = node.utility
            elif None in below:
                value = None  # a child without a value: so is this node
            elif kind is chance:
                below.reverse()
                value = _expectation(node.edges, below)
            else:
                below.reverse()
                value = max(below) if kind is top else min(below)  # type: ignore[type-var]
        column[i] = value
        push(value)
    return column


def _limited_column(
    nodes: list[Node], children: list[int], depth_limit: int
) -> list[Number | None]:
    """:func:`true_value_column` with a depth limit."""
    levels = _levels(children)
    column: list[Number | None] = [None] * len(nodes)
    read: list[Number | None] = []
    leaf, chance, top = Kind.LEAF, Kind.CHANCE, Kind.MAX
    for i in range(len(nodes) - 1, -1, -1):
        node, k, level = nodes[i], children[i], levels[i]
        below: list[Number | None] = []
        if k:
            below = read[-k:]  # the last child first
            del read[-k:]
        value: Number | None = None
        if level > depth_limit:
            pass  # below the limit: no value
        elif node.kind is leaf:
            value = node.utility
        elif not k or level >= depth_limit:
            value = node.heuristic
        elif None in below:
            pass  # a child without a value: so is this node
        elif node.kind is chance:
            below.reverse()
            value = _expectation(node.edges, below)
        else:
            below.reverse()
            value = max(below) if node.kind is top else min(below)  # type: ignore[type-var]
        column[i] = value
        read.append(value)
    return column


def _levels(children: list[int]) -> list[int]:
    """Each node's depth, in preorder, from how many children each node has."""
    levels = [0] * len(children)
    open_: list[int] = []  # the children still to come of each open node, the root first
    for i, k in enumerate(children):
        while open_ and not open_[-1]:
            open_.pop()
        levels[i] = len(open_)
        if open_:
            open_[-1] -= 1
        if k:
            open_.append(k)
    return levels


def _expectation(edges: tuple[Edge, ...], values: list[Number | None]) -> Number | None:
    """The expected value of the children (``values``, in the order of ``edges``)."""
    total: Number = 0
    for edge, child in zip(edges, values, strict=True):
        if child is None:
            return None
        assert edge.probability is not None
        total += edge.probability * child
    return normalize(total)


def negamax_values(tree: Tree, values: Mapping[str, Number]) -> dict[str, Number]:
    """``values`` (MAX's view) turned into the view of the player to move at each node."""
    root = tree.root
    signs = {root.name: sign(mover(root, None))}
    for node in tree:
        for child in tree.children(node.name) if node.edges else ():
            signs[child.name] = sign(mover(child, node))
    return {name: signs[name] * value for name, value in values.items()}
