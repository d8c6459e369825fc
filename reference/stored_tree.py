"""A tree kept as JSON for pages to draw: the whole tree when it is small, else its first
levels with the number of nodes left out.

Pages never expand a game or read a tree file in a request: a worker stores what they
draw (:mod:`grader.services.analyses`), in this form.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from reference.tree import Edge, Kind, Node, Number, Tree

WHOLE_NODES = 5_000
"""The largest tree kept whole (a page's tree view of it stays small)."""
FIRST_LEVELS_NODES = 400
"""The most nodes kept of a larger tree: its first levels that fit."""


@dataclass(frozen=True, slots=True)
class StoredTree:
    """A tree as kept: ``tree`` is the whole tree, or its first levels when ``whole`` is
    False (then ``cut`` names its nodes whose children are left out)."""

    tree: Tree
    nodes: int
    """The nodes of the whole tree."""
    cut: frozenset[str]

    @property
    def whole(self) -> bool:
        return len(self.tree) == self.nodes


def _number(value: Number | None) -> Any:
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    return value


def _read_number(value: Any) -> Any:
    return Fraction(value) if isinstance(value, str) else value


def to_json(
    tree: Tree, whole: int = WHOLE_NODES, first: int = FIRST_LEVELS_NODES
) -> dict[str, Any]:
    """``tree`` as JSON: whole when it has at most ``whole`` nodes, else the first levels
    that fit in ``first`` nodes."""
    kept = set(tree.nodes) if len(tree) <= whole else _first_levels(tree, first)
    nodes = []
    cut = []
    for node in tree:
        if node.name not in kept:
            continue
        edges = [
            [edge.action, edge.child, _number(edge.probability)]
            for edge in node.edges
            if edge.child in kept
        ]
        if node.edges and not edges:
            cut.append(node.name)
        nodes.append(
            [
                node.name,
                str(node.kind),
                edges,
                _number(node.utility),
                _number(node.heuristic),
                node.label,
            ]
        )
    return {"root": tree.root.name, "nodes": nodes, "total": len(tree), "cut": cut}


def from_json(data: dict[str, Any]) -> StoredTree:
    """The tree ``to_json`` kept (unchecked: it was a valid tree when kept)."""
    nodes = [
        Node(
            name,
            Kind(kind),
            tuple(Edge(action, child, _read_number(p)) for action, child, p in edges),
            _read_number(utility),
            _read_number(heuristic),
            label,
        )
        for name, kind, edges, utility, heuristic, label in data["nodes"]
    ]
    tree = Tree(data["root"], nodes, checked=False)
    return StoredTree(tree, int(data["total"]), frozenset(data.get("cut", ())))


def _first_levels(tree: Tree, limit: int) -> set[str]:
    """The names of the nodes of ``tree``'s first levels, as many levels as fit in
    ``limit`` nodes (the root at least)."""
    kept = {tree.root.name}
    level = [tree.root]
    while level:
        below = [child for node in level for child in tree.children(node.name)]
        if not below or len(kept) + len(below) > limit:
            break
        kept.update(node.name for node in below)
        level = below
    return kept
