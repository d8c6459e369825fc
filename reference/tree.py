"""The game-tree model: immutable trees of MAX, MIN, CHANCE and leaf nodes.

A :class:`Tree` is a flat, name-indexed collection of :class:`Node` objects. Nodes refer to
their children by name through :class:`Edge` objects, so no operation on a tree (equality,
rendering, search) needs recursion, however deep the tree is.

Children keep their file order, which is the search order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType
from typing import TypeGuard

Number = int | float | Fraction
"""A utility, heuristic or backed-up value. Fractions arise from exact chance probabilities."""

PROBABILITY_TOLERANCE = 1e-9
"""How far the probabilities of a chance node's edges may sum away from 1."""


class Kind(StrEnum):
    """The kind of a node: whose turn it is, or a leaf."""

    MAX = "MAX"
    MIN = "MIN"
    CHANCE = "CHANCE"
    LEAF = "LEAF"


class TreeError(ValueError):
    """Raised when a tree is built from parts that do not form a valid game tree."""


@dataclass(frozen=True, slots=True)
class Edge:
    """An edge from a node to one of its children.

    ``probability`` is set on the edges of CHANCE nodes only.
    """

    action: str
    child: str
    probability: Fraction | float | None = None


@dataclass(frozen=True, slots=True)
class Node:
    """One node of a game tree.

    Leaves carry a finite ``utility`` (from MAX's point of view). Internal nodes carry their
    ``edges`` in search order and may carry a ``heuristic`` value for depth-limited search.
    An internal node with a heuristic and no edges is a *frontier* node: the game goes on
    beyond it, but the tree was cut there. ``label`` optionally describes the game state
    (a board, a pile) for display.
    """

    name: str
    kind: Kind
    edges: tuple[Edge, ...] = ()
    utility: Number | None = None
    heuristic: Number | None = None
    label: str | None = None

    @property
    def is_leaf(self) -> bool:
        """True for leaves (terminal positions)."""
        return self.kind is Kind.LEAF

    @property
    def is_frontier(self) -> bool:
        """True for an internal node that was cut off: it has a heuristic and no children."""
        return self.kind is not Kind.LEAF and not self.edges

    @property
    def children(self) -> tuple[str, ...]:
        """The names of the children, in search order."""
        return tuple(edge.child for edge in self.edges)


def is_finite_number(value: object) -> TypeGuard[Number]:
    """True for an int, float or Fraction that is finite (bools are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        return False
    return not isinstance(value, float) or math.isfinite(value)


class Tree:
    """An immutable game tree.

    Build one from its nodes with ``Tree(root, nodes)``; the nodes are checked (see
    :meth:`problems`) and a :class:`TreeError` lists everything that is wrong. Nodes are
    kept in depth-first preorder, children in search order.
    """

    __slots__ = ("_nodes", "_parents", "_root")

    def __init__(self, root: str, nodes: Iterable[Node], *, checked: bool = True) -> None:
        by_name: dict[str, Node] = {}
        duplicates: list[str] = []
        for node in nodes:
            if node.name in by_name:
                duplicates.append(node.name)
            by_name[node.name] = node
        # Unchecked: for generators whose trees are well formed by construction (and
        # tested to be), where checking would be a third of what making a tree costs.
        if checked:
            problems = [f"duplicate node name {name!r}" for name in duplicates]
            problems += _structure_problems(root, by_name)
            if problems:
                raise TreeError("; ".join(problems))
        ordered: dict[str, Node] = {}
        parents: dict[str, str] = {}
        for name in _preorder_names(root, by_name):
            node = by_name[name]
            ordered[name] = node
            for edge in node.edges:
                parents[edge.child] = name
        self._root = root
        self._nodes: Mapping[str, Node] = MappingProxyType(ordered)
        self._parents: Mapping[str, str] = MappingProxyType(parents)

    @property
    def root(self) -> Node:
        """The root node."""
        return self._nodes[self._root]

    @property
    def nodes(self) -> Mapping[str, Node]:
        """All nodes by name, in depth-first preorder."""
        return self._nodes

    def __getitem__(self, name: str) -> Node:
        return self._nodes[name]

    def __contains__(self, name: object) -> bool:
        return name in self._nodes

    def __iter__(self) -> Iterator[Node]:
        return iter(self._nodes.values())

    def __len__(self) -> int:
        return len(self._nodes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tree):
            return NotImplemented
        return self._root == other._root and list(self._nodes.values()) == list(
            other._nodes.values()
        )

    def __hash__(self) -> int:
        return hash((self._root, len(self._nodes)))

    def __repr__(self) -> str:
        return f"<Tree root={self._root!r} nodes={len(self._nodes)}>"

    def parent(self, name: str) -> Node | None:
        """The parent of the named node, or None for the root."""
        parent = self._parents.get(name)
        return None if parent is None else self._nodes[parent]

    def children(self, name: str) -> tuple[Node, ...]:
        """The children of the named node, in search order."""
        return tuple(self._nodes[edge.child] for edge in self._nodes[name].edges)

    def depth(self, name: str) -> int:
        """The number of edges from the root to the named node."""
        depth = 0
        while (parent := self._parents.get(name)) is not None:
            name = parent
            depth += 1
        return depth

    def leaves(self) -> list[Node]:
        """The leaves, left to right."""
        return [node for node in self._nodes.values() if node.is_leaf]

    def height(self) -> int:
        """The number of edges on the longest path from the root to a leaf."""
        depths = {self._root: 0}
        for node in self._nodes.values():
            for edge in node.edges:
                depths[edge.child] = depths[node.name] + 1
        return max(depths.values())


def _preorder_names(root: str, nodes: Mapping[str, Node]) -> Iterator[str]:
    stack = [root]
    while stack:
        name = stack.pop()
        yield name
        stack.extend(reversed(nodes[name].children))


def _structure_problems(root: str, nodes: Mapping[str, Node]) -> list[str]:
    """Everything that keeps these nodes from forming one tree rooted at ``root``."""
    problems: list[str] = []
    if root not in nodes:
        return [f"the root {root!r} is not a node of the tree"]
    for node in nodes.values():
        problems += node_problems(node)
        for edge in node.edges:
            if edge.child not in nodes:
                problems.append(f"node {node.name!r} has an unknown child {edge.child!r}")
    if problems:
        return problems
    seen = {root}
    stack = [root]
    while stack:
        for child in nodes[stack.pop()].children:
            if child in seen:
                problems.append(f"node {child!r} is reached twice (a tree has one parent)")
                continue
            seen.add(child)
            stack.append(child)
    unreachable = [name for name in nodes if name not in seen]
    if unreachable:
        problems.append("nodes not reachable from the root: " + ", ".join(unreachable[:10]))
    return problems


def node_problems(node: Node) -> list[str]:
    """The problems of one node on its own (kinds, values, probabilities, actions)."""
    name = node.name
    problems: list[str] = []
    if not name:
        problems.append("a node has an empty name")
    if node.kind is Kind.LEAF:
        if node.edges:
            problems.append(f"leaf {name!r} has children")
        if node.utility is None:
            problems.append(f"leaf {name!r} has no utility")
        elif not is_finite_number(node.utility):
            problems.append(f"leaf {name!r} has a utility that is not a finite number")
        if node.heuristic is not None:
            problems.append(f"leaf {name!r} has a heuristic value (only internal nodes do)")
        return problems
    if node.utility is not None:
        problems.append(f"{node.kind} node {name!r} has a utility (only leaves do)")
    if node.heuristic is not None and not is_finite_number(node.heuristic):
        problems.append(f"node {name!r} has a heuristic that is not a finite number")
    if not node.edges and node.heuristic is None:
        problems.append(f"{node.kind} node {name!r} has no children")
    actions = [edge.action for edge in node.edges]
    if len(set(actions)) != len(actions):
        problems.append(f"node {name!r} has two edges with the same action")
    if any(not action for action in actions):
        problems.append(f"node {name!r} has an edge with an empty action")
    problems += _probability_problems(node)
    return problems


def _probability_problems(node: Node) -> list[str]:
    probabilities = [edge.probability for edge in node.edges]
    if node.kind is not Kind.CHANCE:
        if any(p is not None for p in probabilities):
            return [f"{node.kind} node {node.name!r} has probabilities (only CHANCE nodes do)"]
        return []
    problems: list[str] = []
    for edge, p in zip(node.edges, probabilities, strict=True):
        if p is None:
            problems.append(f"chance edge {edge.action!r} of {node.name!r} has no probability")
        elif not is_finite_number(p) or not 0 < p <= 1:
            problems.append(
                f"chance edge {edge.action!r} of {node.name!r} has probability {p}, outside (0, 1]"
            )
    if not problems and node.edges:
        total = math.fsum(float(p) for p in probabilities if p is not None)
        if abs(total - 1) > PROBABILITY_TOLERANCE:
            problems.append(
                f"the probabilities of chance node {node.name!r} sum to {float(total):g}, not 1"
            )
    return problems
