"""The exercises for the seed algorithms hold the facts of the textbook and shared/FIXTURES.md
(re-derived by hand, not read from the files)."""

from __future__ import annotations

from fractions import Fraction

from grader.config import Settings
from reference.exercises import load_catalog
from reference.search import SearchOptions, search

CATALOG = load_catalog(Settings().exercises_dir)


def test_negamax_alphabeta_on_figure_52_prunes_c2_and_c3() -> None:
    exercise = CATALOG.get("aima-fig5.2-negamax-alphabeta")
    assert exercise.algorithm == "negamax-alphabeta"
    assert exercise.entry_points == ("negamax",)
    result = exercise.reference(exercise.tree("fig5.2"))
    assert (result.value, result.decision) == (3, "a1")
    assert result.trace.evaluated() == ["B1", "B2", "B3", "C1", "D1", "D2", "D3"]


def test_the_tie_separates_the_pruning_rules() -> None:
    tree = CATALOG.get("aima-fig5.2-negamax-alphabeta").tree("tie").tree
    strict = SearchOptions(prune_on_equality=False)
    assert "C2" not in search(tree, "negamax-alphabeta").trace.evaluated()
    assert "C2" in search(tree, "negamax-alphabeta", strict).trace.evaluated()
    assert search(tree, "minimax").value == 10


def test_expectiminimax_decisions_flip_under_an_order_preserving_rescaling() -> None:
    exercise = CATALOG.get("expectiminimax-rescaling")
    rescale = {1: 1, 2: 20, 3: 30, 4: 400}
    for name in ("dice", "layers"):
        tree = exercise.tree(name).tree
        rescaled = exercise.tree(f"{name}-rescaled").tree
        assert [leaf.name for leaf in rescaled.leaves()] == [leaf.name for leaf in tree.leaves()]
        for leaf in tree.leaves():
            assert leaf.utility is not None
            assert rescaled[leaf.name].utility == rescale[int(leaf.utility)]
        assert exercise.reference(tree).decision == "a1"
        assert exercise.reference(rescaled).decision == "a2"
    dice = exercise.reference(exercise.tree("dice"))
    assert dice.trace.values()["B"] == Fraction(21, 10)
    assert dice.trace.values()["C"] == Fraction(13, 10)
    rescaled = exercise.reference(exercise.tree("dice-rescaled")).trace.values()
    assert (rescaled["B"], rescaled["C"]) == (21, Fraction(409, 10))


def test_the_layers_tree_has_max_chance_min_chance_levels() -> None:
    tree = CATALOG.get("expectiminimax-rescaling").tree("layers").tree
    kinds = {tree.depth(node.name): str(node.kind) for node in tree if not node.is_leaf}
    assert kinds == {0: "MAX", 1: "CHANCE", 2: "MIN", 3: "CHANCE"}
    probabilities = {str(edge.probability) for edge in tree[tree.root.children[0]].edges}
    assert probabilities == {"9/10", "1/10"}


def test_alphabeta_from_a_min_root() -> None:
    exercise = CATALOG.get("alphabeta-deep-cutoff")
    tree = exercise.tree("min-root").tree
    assert str(tree.root.kind) == "MIN"
    result = exercise.reference(tree)
    assert (result.value, result.decision) == (6, "a2")
    assert search(tree, "minimax").value == 6
    assert result.trace.pruned() == ["D2", "D3"]


def test_the_deep_cutoff_never_evaluates_x() -> None:
    exercise = CATALOG.get("alphabeta-deep-cutoff")
    result = exercise.reference(exercise.tree("deep-cutoff"))
    assert result.value == 10
    assert result.trace.evaluated() == ["A", "B", "C", "D"]


def test_depth_limited_alphabeta_agrees_with_depth_limited_minimax() -> None:
    exercise = CATALOG.get("tictactoe-depth2-alphabeta")
    assert exercise.algorithm == "depth-limited-alphabeta"
    assert exercise.options.depth_limit == 2
    entry = exercise.trees[0]
    result = exercise.reference(entry)
    minimax = search(entry.tree, "depth-limited-minimax", exercise.options)
    assert (result.value, result.decision) == (minimax.value, minimax.decision) == (1, "(2,2)")
    assert all(entry.tree.depth(name) == 2 for name in result.trace.evaluated())
    assert len(minimax.trace.evaluated()) == 42
    assert len(result.trace.evaluated()) == 22
