"""Turn parsed nodes with their file positions into a :class:`Tree`, or located problems.

Both the YAML format and the compact notation end here, so every structural problem
(a duplicate name, an unknown child, a node reached twice or never) is reported at the
place in the file where it was written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


@dataclass(frozen=True, slots=True)
class Unread:
    """A node whose definition has problems: where it is, and the children it names."""

    position: Position
    children: tuple[str, ...]


def too_many_nodes_message(limit: int) -> str:
    """What is wrong with a tree that grows past the size limit."""
    return f"the tree has more than {limit:,} nodes (the size limit)"


def assemble(
    root: str | None,
    root_position: Position,
    placed: Sequence[Placed],
    filename: str,
    *,
    written_wrongly: Mapping[str, Unread] | None = None,
    problems: Sequence[Problem] = (),
) -> Tree:
    """The tree rooted at ``root``; raises :class:`FileProblems` listing every problem.

    ``problems`` are those already found while reading the file; ``written_wrongly`` holds
    the nodes whose definitions had such problems (they are not in ``placed``). Those still
    count as defined, so an edge to one is not reported again as undefined, nor its
    children as unreachable. ``root`` is None when
    the file does not say which node is the root (itself a problem already reported).
    """
    wrongly = written_wrongly or {}
    found: list[Problem] = list(problems)
    by_name: dict[str, Placed] = {}
    duplicates: set[str] = set()
    for entry in placed:
        name = entry.node.name
        first = by_name.get(name)
        if first is not None:
            line, column = first.position
            message = f"duplicate node name {name!r} (first defined at {line}:{column})"
            found.append(Problem(filename, *entry.position, message))
            duplicates.add(name)
            continue
        by_name[name] = entry
        found += [Problem(filename, *entry.position, m) for m in node_problems(entry.node)]
    found += _undefined_children(by_name, wrongly, filename)
    if root is not None:
        if root not in by_name and root not in wrongly:
            found.append(Problem(filename, *root_position, f"the root {root!r} is not defined"))
        else:
            found += _reach_problems(root, by_name, wrongly, duplicates, filename)
    if found:
        raise FileProblems(found)
    assert root is not None  # a tree file without a root has a problem saying so
    try:
        return Tree(root, (entry.node for entry in placed))
    except TreeError as error:  # the checks above should have caught it; stay located anyway
        raise FileProblems([Problem(filename, *root_position, str(error))]) from None


def _undefined_children(
    by_name: Mapping[str, Placed], wrongly: Mapping[str, Unread], filename: str
) -> list[Problem]:
    """Edges to nodes defined nowhere, reachable from the root or not."""
    problems: list[Problem] = []
    for entry in by_name.values():
        for edge, position in zip(entry.node.edges, entry.edge_positions, strict=True):
            if edge.child not in by_name and edge.child not in wrongly:
                message = f"{entry.node.name!r} leads to {edge.child!r}, which is not defined"
                problems.append(Problem(filename, *position, message))
    return problems


def _reach_problems(
    root: str,
    by_name: Mapping[str, Placed],
    wrongly: Mapping[str, Unread],
    duplicates: set[str],
    filename: str,
) -> list[Problem]:
    problems: list[Problem] = []
    seen = {root}
    stack = [root]
    while stack:
        name = stack.pop()
        entry = by_name.get(name)
        if entry is None:
            # Written wrongly: its children are followed, but where it names them is not
            # known, so a second parent found through it is left to the next upload.
            for child in wrongly[name].children:
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
            continue
        for edge, position in zip(entry.node.edges, entry.edge_positions, strict=True):
            child = edge.child
            if child not in by_name and child not in wrongly:
                continue  # reported as undefined
            if child in seen and child not in duplicates:
                message = f"node {child!r} is reached a second time (a tree node has one parent)"
                problems.append(Problem(filename, *position, message))
            elif child not in seen:
                seen.add(child)
                stack.append(child)
    positions = {name: entry.position for name, entry in by_name.items()}
    positions.update((name, unread.position) for name, unread in wrongly.items())
    for name, position in positions.items():
        if name not in seen:
            message = f"node {name!r} is not reachable from the root {root!r}"
            problems.append(Problem(filename, *position, message))
    return problems
