"""Rendering and parsing tree files are inverse: ``parse(render(tree)) == tree``."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from reference.tree import Kind, Tree
from reference.treefile import parse, parse_compact, render, render_compact
from tests.strategies import chance_trees, examples, game_trees, relabelled

any_tree = st.one_of(game_trees(heuristics=True), chance_trees(), game_trees(max_depth=8))


def same_types(left: Tree, right: Tree) -> bool:
    """Equality of trees ignores 3 == 3.0; a round trip must keep the number types too."""
    for a, b in zip(left, right, strict=True):
        for x, y in ((a.utility, b.utility), (a.heuristic, b.heuristic)):
            if type(x) is not type(y):
                return False
        for e, f in zip(a.edges, b.edges, strict=True):
            if type(e.probability) is not type(f.probability):
                return False
    return True


@given(relabelled(any_tree))
@settings(max_examples=examples(150))
def test_parse_of_render_is_the_tree(tree: Tree) -> None:
    again = parse(render(tree))
    assert again == tree
    assert same_types(again, tree)
    assert [node.label for node in again] == [node.label for node in tree]


@given(relabelled(any_tree), st.text(max_size=30), st.text(max_size=30))
def test_title_and_description_do_not_change_the_tree(
    tree: Tree, title: str, description: str
) -> None:
    assert parse(render(tree, title=title, description=description)) == tree


@given(any_tree)
@settings(max_examples=examples(150))
def test_compact_round_trip_with_generated_names(tree: Tree) -> None:
    text = render_compact(tree)
    assert "=" not in text and ":" not in text  # every name and action is the generated one
    again = parse_compact(text)
    assert again == tree
    assert same_types(again, tree)


@given(relabelled(any_tree))
@settings(max_examples=examples(150))
def test_compact_round_trip_with_any_names(tree: Tree) -> None:
    without_labels = Tree(
        tree.root.name,
        [
            type(node)(node.name, node.kind, node.edges, node.utility, node.heuristic)
            for node in tree
        ],
    )
    assert parse_compact(render_compact(tree)) == without_labels


@given(relabelled(any_tree))
def test_a_compact_tree_inside_a_tree_file(tree: Tree) -> None:
    text = "title: t\ntree: '" + render_compact(tree).replace("'", "''") + "'\n"
    parsed = parse(text)
    assert render_compact(parsed) == render_compact(tree)


def test_the_rendered_file_has_one_line_per_node() -> None:
    tree = parse_compact("MAX[ MIN[3 12 8] CHANCE[1/3*2 2/3*-4.5] MIN(7) ]")
    text = render(tree, title="Small")
    assert text == (
        'title: "Small"\n'
        "root: A\n"
        "nodes:\n"
        "  A: {kind: MAX, children: {a1: B, a2: C, a3: D}}\n"
        "  B: {kind: MIN, children: {b1: B1, b2: B2, b3: B3}}\n"
        "  B1: 3\n"
        "  B2: 12\n"
        "  B3: 8\n"
        "  C: {kind: CHANCE, children: {c1: {to: C1, p: 1/3}, c2: {to: C2, p: 2/3}}}\n"
        "  C1: 2\n"
        "  C2: -4.5\n"
        "  D: {kind: MIN, heuristic: 7}\n"
    )
    assert tree["C"].edges[0].probability == Fraction(1, 3)
    assert tree["D"].kind is Kind.MIN and tree["D"].is_frontier


def test_awkward_names_are_quoted() -> None:
    tree = parse_compact('MAX["a: b":"x y"=1 "#":"[1]"=-2 "yes":"null"=3]', root_name="-")
    text = render(tree)
    assert parse(text) == tree
    assert '"x y": 1' in text and '"#": "[1]"' in text
    assert [node.name for node in tree] == ["-", "x y", "[1]", "null"]
