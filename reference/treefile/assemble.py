"""Turn parsed nodes with their file positions into a :class:`Tree`, or located problems.

Both the YAML format and the compact notation end here, so every structural problem
(a duplicate name, an unknown child, a node reached twice or never) is reported at the
place in the file where it was written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reference.problems import FileProblems, Problem
from reference.tree import Node, Tree, TreeError, node_problems

Position = tuple[int, int]
"""A 1-based (line, column)."""

DEFAULT_MAX_NODES = 1_000_000
"""Trees with more nodes are refused (configurable per call)."""


@dataclass(frozen=True, slots=True)
class Placed:
    """A parsed node, where it was defined, and where each of its edges names its child."""

    node: Node
    position: Position
    edge_positions: tuple[Position, ...]


def too_many_nodes_message(limit: int) -> str:
    """What is wrong with a tree that grows past the size limit."""
    return f"the tree has more than {limit:,} nodes (the size limit)"


def assemble(root: str, root_position: Position, placed: Sequence[Placed], filename: str) -> Tree:
    """The tree rooted at ``root``; raises :class:`FileProblems` listing every problem."""
    problems: list[Problem] = []
    by_name: dict[str, Placed] = {}
    duplicates: set[str] = set()
    for entry in placed:
        name = entry.node.name
        first = by_name.get(name)
        if first is not None:
            line, column = first.position
            message = f"duplicate node name {name!r} (first defined at {line}:{column})"
            problems.append(Problem(filename, *entry.position, message))
            duplicates.add(name)
            continue
        by_name[name] = entry
        problems += [Problem(filename, *entry.position, m) for m in node_problems(entry.node)]
    if root not in by_name:
        problems.append(Problem(filename, *root_position, f"the root {root!r} is not defined"))
    else:
        problems += _reach_problems(root, by_name, duplicates, filename)
    if problems:
        raise FileProblems(problems)
    try:
        return Tree(root, (entry.node for entry in placed))
    except TreeError as error:  # the checks above should have caught it; stay located anyway
        raise FileProblems([Problem(filename, *root_position, str(error))]) from None


def _reach_problems(
    root: str, by_name: dict[str, Placed], duplicates: set[str], filename: str
) -> list[Problem]:
    problems: list[Problem] = []
    seen = {root}
    stack = [root]
    while stack:
        entry = by_name[stack.pop()]
        for edge, position in zip(entry.node.edges, entry.edge_positions, strict=True):
            child = edge.child
            if child not in by_name:
                message = f"{entry.node.name!r} leads to {child!r}, which is not defined"
                problems.append(Problem(filename, *position, message))
            elif child in seen and child not in duplicates:
                message = f"node {child!r} is reached a second time (a tree node has one parent)"
                problems.append(Problem(filename, *position, message))
            elif child not in seen:
                seen.add(child)
                stack.append(child)
    for name, entry in by_name.items():
        if name not in seen:
            message = f"node {name!r} is not reachable from the root {root!r}"
            problems.append(Problem(filename, *entry.position, message))
    return problems
