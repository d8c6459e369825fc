"""Game trees drawn as indented text, with an optional note on each node."""

from __future__ import annotations

from collections.abc import Callable

from reference.tree import Kind, Node, Tree
from reference.values import format_value


def node_summary(node: Node) -> str:
    """Name, kind and static value of a node: ``B1 = 3``, ``B [MIN]``, ``E [MAX] h=4``."""
    if node.kind is Kind.LEAF:
        text = f"{node.name} = {format_value(node.utility)}"
    else:
        text = f"{node.name} [{node.kind}]"
        if node.heuristic is not None:
            text += f" h={format_value(node.heuristic)}"
        if node.is_frontier:
            text += " (cut off)"
    if node.label:
        text += f"  {node.label.replace(chr(10), ' / ')}"
    return text


def draw(
    tree: Tree,
    note: Callable[[Node], str] | None = None,
    *,
    max_depth: int | None = None,
) -> str:
    """The tree as text, one node per line, children indented under their parent.

    Each line shows the edge's action (and probability), the node's name, kind and value,
    and ``note(node)`` when given. Iterative, so any depth can be drawn; ``max_depth``
    stops the drawing at that depth.
    """
    lines: list[str] = []
    stack: list[tuple[Node, str, str, int]] = [(tree.root, "", "", 0)]
    while stack:
        node, prefix, edge_text, depth = stack.pop()
        extra = note(node) if note else ""
        lines.append(f"{prefix}{edge_text}{node_summary(node)}{'  ' + extra if extra else ''}")
        if max_depth is not None and depth >= max_depth and node.edges:
            lines.append(f"{_indent(prefix, edge_text)}... ({len(node.edges)} children not shown)")
            continue
        child_prefix = _indent(prefix, edge_text)
        count = len(node.edges)
        for index in reversed(range(count)):
            edge = node.edges[index]
            last = index == count - 1
            probability = (
                f" p={format_value(edge.probability)}" if edge.probability is not None else ""
            )
            branch = ("└─ " if last else "├─ ") + f"{edge.action}{probability} → "
            stack.append((tree[edge.child], child_prefix, branch, depth + 1))
    return "\n".join(lines)


def _indent(prefix: str, edge_text: str) -> str:
    if not edge_text:
        return prefix
    return prefix + ("   " if edge_text.startswith("└") else "│  ")
