"""Trees kept as JSON for pages (whole when small, else their first levels) and the
progress an expansion tells a listener."""

from __future__ import annotations

import json
from fractions import Fraction

from reference import games, progress
from reference.stored_tree import from_json, to_json
from reference.tree import Edge, Kind, Node, Tree


def test_a_small_tree_is_kept_whole_with_its_values_and_probabilities() -> None:
    tree = Tree(
        "A",
        [
            Node(
                "A", Kind.CHANCE, (Edge("l", "B", Fraction(1, 3)), Edge("r", "C", Fraction(2, 3)))
            ),
            Node("B", Kind.LEAF, utility=Fraction(7, 2), label="x"),
            Node("C", Kind.MAX, (Edge("c", "D"),), heuristic=1.5),
            Node("D", Kind.LEAF, utility=-4),
        ],
    )

    kept = from_json(json.loads(json.dumps(to_json(tree))))

    assert kept.whole and kept.nodes == 4 and not kept.cut
    assert kept.tree == tree


def test_a_large_tree_keeps_its_first_levels_and_says_how_large_it_is() -> None:
    tree = games.generate("tictactoe", position=".../.X./...")  # 55,505 nodes

    kept = from_json(to_json(tree, whole=5_000, first=400))

    assert not kept.whole and kept.nodes == len(tree) == 55_505
    assert len(kept.tree) == 1 + 8 + 56  # the first three levels fit in 400 nodes
    assert kept.cut == {node.name for node in kept.tree if tree.depth(node.name) == 2}
    assert all(not node.edges for node in kept.tree if node.name in kept.cut)


def test_an_expansion_tells_a_listener_how_many_nodes_it_has_made() -> None:
    heard: list[tuple[str, int]] = []

    listener = progress.listening(lambda doing, made: heard.append((doing, made)))
    with listener, progress.doing("expanding tree corner"):
        games.generate("tictactoe", position=".../.X./...")
    games.generate("tictactoe", position=".../.X./...")  # nobody listens: nothing told

    assert heard and all(doing == "expanding tree corner" for doing, _ in heard)
    counts = [made for _, made in heard]
    assert counts == sorted(counts) and counts[0] >= progress.EVERY and len(counts) == 1
