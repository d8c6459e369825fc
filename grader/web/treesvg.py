"""Game trees drawn as inline SVG: a layered layout, one shape per node kind, marks per node.

Leaves sit in evenly spaced columns in search order and every parent is centred over its
children, so a tree reads like the textbook's figures. Each node is a ``<g>`` carrying
``data-node="<name>"`` for the page's script. Everything taken from the tree or the marks
is escaped. Trees too big to read are drawn down to the deepest level that keeps the
drawing under ``max_nodes`` nodes, with a notice saying so.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace

from markupsafe import Markup, escape

from reference.stored_tree import StoredTree
from reference.tree import Kind, Node, Tree
from reference.values import format_value

MAX_DRAWN = 400
"""The most nodes one drawing shows."""
COLUMN = 46
"""Horizontal distance between two neighbouring leaves."""
LEVEL = 72
"""Vertical distance between two levels."""
RADIUS = 15
MARGIN = 34


@dataclass(frozen=True, slots=True)
class NodeMark:
    """How to draw one node: its CSS classes, its hover text, the text inside its shape,
    and whether the edge from its parent is cut (a pruned branch)."""

    css_class: str = ""
    title: str = ""
    label: str | None = None
    cut: bool = False


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each drawn node goes (centre x, y), in preorder, and how much was left out."""

    positions: dict[str, tuple[float, float]]
    levels: int
    """The number of levels drawn (the root alone is one level)."""
    width: float
    height: float
    left_out: int
    """Nodes of the tree that are not drawn."""
    cut_below: frozenset[str]
    """Drawn nodes whose children are not drawn."""


def layout(tree: Tree, max_nodes: int = MAX_DRAWN) -> Layout:
    """The layered layout of ``tree``'s first levels (as many as fit in ``max_nodes``)."""
    depths: dict[str, int] = {tree.root.name: 0}
    per_level: dict[int, int] = {}
    for node in tree:  # preorder: a parent comes before its children
        depth = depths[node.name]
        per_level[depth] = per_level.get(depth, 0) + 1
        for child in node.children:
            depths[child] = depth + 1
    deepest, total = 0, 0
    for depth in sorted(per_level):
        total += per_level[depth]
        if total > max_nodes and depth > 0:
            break
        deepest = depth
    drawn = [node for node in tree if depths[node.name] <= deepest]
    xs: dict[str, float] = {}
    column = 0
    for node in drawn:
        if not node.children or depths[node.name] == deepest:
            xs[node.name] = MARGIN + column * COLUMN
            column += 1
    for node in reversed(drawn):  # children before their parents
        if node.name not in xs:
            xs[node.name] = (xs[node.children[0]] + xs[node.children[-1]]) / 2
    positions: dict[str, tuple[float, float]] = {
        node.name: (xs[node.name], float(MARGIN + depths[node.name] * LEVEL)) for node in drawn
    }
    cut_below = frozenset(
        node.name for node in drawn if node.children and depths[node.name] == deepest
    )
    return Layout(
        positions=positions,
        levels=deepest + 1,
        width=2 * MARGIN + max(column - 1, 0) * COLUMN,
        height=2 * MARGIN + deepest * LEVEL + 14,
        left_out=len(tree) - len(drawn),
        cut_below=cut_below,
    )


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _shape(kind: Kind) -> str:
    r = RADIUS
    if kind is Kind.MAX:
        return f'<polygon class="shape" points="0,{-r} {r},{r * 0.8:g} {-r},{r * 0.8:g}"/>'
    if kind is Kind.MIN:
        return f'<polygon class="shape" points="0,{r} {r},{-r * 0.8:g} {-r},{-r * 0.8:g}"/>'
    if kind is Kind.CHANCE:
        return f'<circle class="shape" r="{r}"/>'
    return (
        f'<rect class="shape" x="{-r}" y="{-r * 0.75:g}" width="{2 * r}" '
        f'height="{1.5 * r:g}" rx="3"/>'
    )


def _default_title(node: Node) -> str:
    if node.is_leaf:
        return f"{node.name}: leaf, utility {format_value(node.utility)}"
    return f"{node.name}: {node.kind}"


def _label(node: Node, mark: NodeMark | None) -> str:
    if mark is not None and mark.label is not None:
        return mark.label
    if node.is_leaf:
        return format_value(node.utility)
    return ""


def _edges(tree: Tree, drawn: Layout, marks: Mapping[str, NodeMark]) -> list[str]:
    parts: list[str] = []
    below_cut: set[str] = set()
    for node in tree:
        if node.name not in drawn.positions:
            continue
        px, py = drawn.positions[node.name]
        for edge in node.edges:
            if edge.child not in drawn.positions:
                continue
            cx, cy = drawn.positions[edge.child]
            mark = marks.get(edge.child)
            cut = mark is not None and mark.cut
            classes = "edge"
            if cut:
                classes += " cut"
            elif node.name in below_cut:
                classes += " beyond-cut"
            if cut or node.name in below_cut:
                below_cut.add(edge.child)
            y1, y2 = py + RADIUS, cy - RADIUS
            parts.append(
                f'<line class="{classes}" x1="{_number(px)}" y1="{_number(y1)}" '
                f'x2="{_number(cx)}" y2="{_number(y2)}"/>'
            )
            mx, my = (px + cx) / 2, (y1 + y2) / 2
            if cut:
                # A short stroke across the middle of the edge: the textbook's cut mark.
                dx, dy = cx - px, y2 - y1
                length = max((dx * dx + dy * dy) ** 0.5, 1.0)
                nx, ny = -dy / length * 9, dx / length * 9
                parts.append(
                    f'<line class="cut-mark" x1="{_number(mx - nx)}" y1="{_number(my - ny)}" '
                    f'x2="{_number(mx + nx)}" y2="{_number(my + ny)}"/>'
                )
            if edge.probability is not None:
                parts.append(
                    f'<text class="probability" x="{_number(mx + 4)}" y="{_number(my)}">'
                    f"{escape(format_value(edge.probability))}</text>"
                )
    return parts


def _nodes(tree: Tree, drawn: Layout, marks: Mapping[str, NodeMark]) -> list[str]:
    parts: list[str] = []
    for name, (x, y) in drawn.positions.items():
        node = tree[name]
        mark = marks.get(name)
        classes = f"node {node.kind.lower()}"
        if mark is not None and mark.css_class:
            classes += f" {mark.css_class}"
        title = mark.title if mark is not None and mark.title else _default_title(node)
        name_at = f'x="0" y="{RADIUS + 13}"' if node.is_leaf else f'x="{-RADIUS - 3}" y="-4"'
        anchor = "middle" if node.is_leaf else "end"
        more = ""
        if name in drawn.cut_below:
            more = f'<text class="more" x="0" y="{RADIUS + 14}">&#8230;</text>'
        parts.append(
            f'<g class="{escape(classes)}" data-node="{escape(name)}" '
            f'transform="translate({_number(x)},{_number(y)})" tabindex="0">'
            f"<title>{escape(title)}</title>{_shape(node.kind)}"
            f'<text class="label" x="0" y="4">{escape(_label(node, mark))}</text>'
            f'<text class="name" {name_at} text-anchor="{anchor}">{escape(name)}</text>'
            f"{more}</g>"
        )
    return parts


def tree_svg(
    tree: Tree,
    marks: Mapping[str, NodeMark] | None = None,
    *,
    caption: str = "",
    max_nodes: int = MAX_DRAWN,
    total: int | None = None,
    cut: Collection[str] = (),
) -> Markup:
    """``tree`` as an inline SVG (in a ``<div class="tree-drawing">``), nodes drawn by
    ``marks``; a notice precedes it when only the first levels fit. When ``tree`` is the
    first levels of a larger tree (kept by :mod:`reference.stored_tree`), ``total`` is the
    larger tree's size and ``cut`` its nodes whose children are left out."""
    marks = marks or {}
    drawn = layout(tree, max_nodes)
    whole = len(tree) if total is None else total
    if total is not None or cut:
        drawn = replace(
            drawn,
            left_out=whole - len(drawn.positions),
            cut_below=drawn.cut_below | (frozenset(cut) & drawn.positions.keys()),
        )
    width, height = _number(drawn.width), _number(drawn.height)
    notice = ""
    if drawn.left_out:
        notice = (
            f'<p class="tree-notice">This tree has {whole:,} nodes: only its first '
            f"{drawn.levels} level{'s' if drawn.levels != 1 else ''} are drawn "
            f"({len(drawn.positions):,} nodes).</p>"
        )
    label = caption or f"game tree rooted at {tree.root.name}"
    body = "".join(_edges(tree, drawn, marks) + _nodes(tree, drawn, marks))
    return Markup(
        f'<div class="tree-drawing">{notice}'
        f'<svg class="tree" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'aria-label="{escape(label)}" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}">{body}</svg></div>'
    )


def stored_tree_svg(
    stored: StoredTree, marks: Mapping[str, NodeMark] | None = None, *, caption: str = ""
) -> Markup:
    """A tree as an analysis kept it, drawn (its first levels, with a notice, when it was
    too large to keep whole)."""
    return tree_svg(stored.tree, marks, caption=caption, total=stored.nodes, cut=stored.cut)
