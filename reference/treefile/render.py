"""Writing trees as tree files: one line per node, in depth-first order, so diffs stay small.

``parse(render(tree)) == tree`` for every tree: names, actions and labels are quoted
where YAML would not read them back verbatim, floats are written with ``repr`` and
fractions as ``n/d``.
"""

from __future__ import annotations

from reference.tree import Node, Tree
from reference.treefile.numbers import format_number
from reference.treefile.quoting import yaml_key, yaml_quoted, yaml_scalar


def _definition(node: Node) -> str:
    if node.is_leaf and node.label is None:
        assert node.utility is not None
        return format_number(node.utility)
    fields = [f"kind: {node.kind}"]
    if node.utility is not None:
        fields.append(f"utility: {format_number(node.utility)}")
    if node.edges:
        edges = []
        for edge in node.edges:
            target = yaml_scalar(edge.child)
            if edge.probability is not None:
                target = f"{{to: {target}, p: {format_number(edge.probability)}}}"
            edges.append(yaml_key(edge.action) + target)
        fields.append("children: {" + ", ".join(edges) + "}")
    if node.heuristic is not None:
        fields.append(f"heuristic: {format_number(node.heuristic)}")
    if node.label is not None:
        fields.append(f"label: {yaml_quoted(node.label)}")
    return "{" + ", ".join(fields) + "}"


def render(tree: Tree, *, title: str | None = None, description: str | None = None) -> str:
    """The tree file for ``tree``, optionally with a title and a description."""
    lines = []
    if title is not None:
        lines.append(f"title: {yaml_quoted(title)}")
    if description is not None:
        lines.append(f"description: {yaml_quoted(description)}")
    lines.append(f"root: {yaml_scalar(tree.root.name)}")
    lines.append("nodes:")
    lines.extend(f"  {yaml_key(node.name, '  ')}{_definition(node)}" for node in tree)
    return "\n".join(lines) + "\n"
