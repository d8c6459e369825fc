"""Trees drawn as SVG: the layout, the marks, escaping, cut branches, big trees."""

from __future__ import annotations

import re
from itertools import pairwise

from grader.web.treesvg import NodeMark, layout, tree_svg
from reference.tree import Edge, Kind, Node, Tree
from reference.treefile import parse_compact

FIG52 = "MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]"


def fig52() -> Tree:
    return parse_compact(FIG52)


def classes_of(svg: str, name: str) -> set[str]:
    match = re.search(rf'<g class="([^"]*)" data-node="{re.escape(name)}"', svg)
    assert match, f"no node {name} in the drawing"
    return set(match.group(1).split())


def test_leaves_are_evenly_spaced_in_search_order_and_parents_centred() -> None:
    tree = fig52()
    drawn = layout(tree)
    leaves = ["B1", "B2", "B3", "C1", "C2", "C3", "D1", "D2", "D3"]
    xs = [drawn.positions[name][0] for name in leaves]
    gaps = {round(b - a, 6) for a, b in pairwise(xs)}
    assert len(gaps) == 1 and gaps.pop() > 0
    assert drawn.positions["B"][0] == xs[1]
    assert drawn.positions["A"][0] == drawn.positions["C"][0] == xs[4]
    assert drawn.positions["A"][1] < drawn.positions["B"][1] < drawn.positions["B1"][1]
    assert drawn.left_out == 0 and drawn.levels == 3


def test_shapes_follow_the_kinds_and_leaves_show_their_utility() -> None:
    svg = str(tree_svg(fig52()))
    assert classes_of(svg, "A") == {"node", "max"}
    assert classes_of(svg, "B") == {"node", "min"}
    assert classes_of(svg, "B2") == {"node", "leaf"}
    assert re.search(r'data-node="B2"[^>]*>.*?<text class="label"[^>]*>12</text>', svg)


def test_marks_give_classes_titles_labels_and_cut_edges() -> None:
    marks = {
        "C": NodeMark(css_class="verdict-ok", title="C returned 2", label="2"),
        "C2": NodeMark(css_class="verdict-pruned", title="pruned", cut=True),
        "C3": NodeMark(css_class="verdict-pruned", title="pruned", cut=True),
    }
    svg = str(tree_svg(fig52(), marks))
    assert "verdict-pruned" in classes_of(svg, "C2")
    assert "<title>C returned 2</title>" in svg
    assert svg.count('class="edge cut"') == 2
    assert svg.count('class="cut-mark"') == 2


def test_edges_below_a_cut_are_dashed_without_a_second_mark() -> None:
    tree = parse_compact("MAX[ MIN[3 12] MIN[2 MAX[4 6]] ]")
    cut = next(node.name for node in tree if node.kind is Kind.MAX and node is not tree.root)
    svg = str(tree_svg(tree, {cut: NodeMark(cut=True)}))
    assert svg.count('class="edge cut"') == 1
    assert svg.count('class="edge beyond-cut"') == 2
    assert svg.count('class="cut-mark"') == 1


def test_names_and_texts_are_escaped() -> None:
    tree = Tree(
        "<b>",
        [
            Node("<b>", Kind.MAX, (Edge("a1", 'x"y'), Edge("a2", "z&"))),
            Node('x"y', Kind.LEAF, utility=1),
            Node("z&", Kind.LEAF, utility=2),
        ],
    )
    svg = str(tree_svg(tree, {"z&": NodeMark(title="<script>alert(1)</script>", label="<i>")}))
    assert "<b>" not in svg and "<script>" not in svg and "<i>" not in svg
    assert 'data-node="&lt;b&gt;"' in svg
    assert 'data-node="x&#34;y"' in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg


def test_big_trees_are_drawn_to_their_first_levels_with_a_notice() -> None:
    # 1 + 10 + 100 + 1000 nodes: only the first three levels fit under 400 nodes.
    leaves = "MAX[" + " 1" * 10 + "]"
    tree = parse_compact("MAX[" + " ".join(["MIN[" + " ".join([leaves] * 10) + "]"] * 10) + "]")
    assert len(tree) == 1111
    drawn = layout(tree)
    assert drawn.levels == 3 and len(drawn.positions) == 111
    svg = str(tree_svg(tree))
    assert "only its first 3 levels are drawn" in svg
    assert svg.count("<g class=") == 111
