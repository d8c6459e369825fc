"""Hypothesis strategies for random game trees; every property test draws from here."""

from __future__ import annotations

import os
from fractions import Fraction

from hypothesis import strategies as st

from reference.naming import ROOT_NAME, action_labels, child_names
from reference.tree import Edge, Kind, Node, Number, Tree

OTHER = {Kind.MAX: Kind.MIN, Kind.MIN: Kind.MAX}

QUICK = os.environ.get("GRADER_TEST_QUICK") == "1"
"""Set by ``scripts/test.sh --quick``: property tests draw a quarter of their examples."""


def examples(count: int) -> int:
    """How many examples a property test that asks for ``count`` draws in this run."""
    return max(10, count // 4) if QUICK else count


values = st.integers(min_value=-6, max_value=6)
"""Small integers, so ties are frequent; negative values included."""

any_values = st.one_of(
    values,
    st.fractions(min_value=-10, max_value=10, max_denominator=6),
    st.floats(min_value=-100, max_value=100, allow_nan=False, allow_infinity=False),
)


@st.composite
def game_trees(
    draw: st.DrawFn,
    *,
    max_depth: int = 5,
    max_branching: int = 4,
    kinds: tuple[Kind, ...] = (Kind.MAX, Kind.MIN),
    alternate: bool | None = None,
    leaf_values: st.SearchStrategy[Number] = values,
    heuristics: bool = False,
) -> Tree:
    """A random tree: depth 1 to ``max_depth``, branching 1 to ``max_branching``.

    With ``alternate`` (drawn when None) MAX and MIN alternate by level, as in a game;
    otherwise each internal node's kind is drawn from ``kinds``. Leaves may stand at any
    depth. CHANCE nodes get random exact probabilities. With ``heuristics``, every
    internal node carries a heuristic value.
    """
    if alternate is None:
        alternate = draw(st.booleans())
    depth_goal = draw(st.integers(min_value=1, max_value=max_depth))
    nodes: list[Node] = []
    root_kind = draw(st.sampled_from(kinds))
    stack: list[tuple[str, Kind, int]] = [(ROOT_NAME, root_kind, 0)]
    while stack:
        name, kind, depth = stack.pop()
        is_leaf = depth == depth_goal or (depth > 0 and draw(st.integers(0, 4)) == 0)
        if is_leaf:
            nodes.append(Node(name, Kind.LEAF, utility=draw(leaf_values)))
            continue
        count = draw(st.integers(min_value=1, max_value=max_branching))
        names = child_names(name, count, parent_is_root=depth == 0)
        probabilities: list[Fraction | None] = [None] * count
        if kind is Kind.CHANCE:
            weights = [draw(st.integers(1, 4)) for _ in range(count)]
            probabilities = [Fraction(w, sum(weights)) for w in weights]
        edges = tuple(
            Edge(action, child, p)
            for action, child, p in zip(
                action_labels(name, count), names, probabilities, strict=True
            )
        )
        heuristic = draw(values) if heuristics else None
        nodes.append(Node(name, kind, edges, heuristic=heuristic))
        for child in names:
            if alternate and kind in OTHER:
                child_kind = OTHER[kind]
            else:
                child_kind = draw(st.sampled_from(kinds))
            stack.append((child, child_kind, depth + 1))
    return Tree(ROOT_NAME, nodes)


def chance_trees(**kwargs: object) -> st.SearchStrategy[Tree]:
    """Random trees with MAX, MIN and CHANCE nodes (values may be fractions or floats)."""
    return game_trees(
        kinds=(Kind.MAX, Kind.MIN, Kind.CHANCE), alternate=False, leaf_values=any_values, **kwargs
    )


texts = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=8)
"""Any non-empty text: spaces, quotes, colons, brackets, control characters, emoji."""


@st.composite
def relabelled(draw: st.DrawFn, trees: st.SearchStrategy[Tree]) -> Tree:
    """A tree from ``trees`` with arbitrary node names, action labels and node labels, and
    frontier nodes (a heuristic and no children) in place of some leaves."""
    tree = draw(trees)
    names = draw(st.lists(texts, min_size=len(tree), max_size=len(tree), unique=True))
    rename = dict(zip(tree.nodes, names, strict=True))
    nodes = []
    for node in tree:
        actions = draw(
            st.lists(texts, min_size=len(node.edges), max_size=len(node.edges), unique=True)
        )
        edges = tuple(
            Edge(action, rename[edge.child], edge.probability)
            for action, edge in zip(actions, node.edges, strict=True)
        )
        label = draw(st.none() | st.text(st.characters(exclude_categories=("Cs",)), max_size=12))
        if node.is_leaf and draw(st.integers(0, 5)) == 0:
            nodes.append(Node(rename[node.name], Kind.MIN, heuristic=node.utility, label=label))
            continue
        nodes.append(Node(rename[node.name], node.kind, edges, node.utility, node.heuristic, label))
    return Tree(rename[tree.root.name], nodes)
