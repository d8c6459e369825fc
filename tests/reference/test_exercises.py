"""The shipped exercises load, and what each one states holds for the reference search."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.config import Settings
from reference.exercises import Exercise, load_catalog
from reference.search import search

CATALOG = load_catalog(Settings().exercises_dir)

REQUIRED = [
    "aima-fig5.2-minimax",
    "aima-fig5.2-alphabeta",
    "grundy-7-minimax",
    "grundy-7-negamax",
    "fantan-1-3-minimax",
    "tictactoe-seed-minimax",
    "tictactoe-seed-alphabeta",
    "tictactoe-depth2-heuristic",
    "expectimax-dice",
    "alphabeta-pruning-intuition",
    "domineering-small-alphabeta",
    "aima-fig5.2-negamax-alphabeta",
    "expectiminimax-rescaling",
    "alphabeta-deep-cutoff",
    "tictactoe-depth2-alphabeta",
]


def exercise(slug: str) -> Exercise:
    return CATALOG.get(slug)


def test_every_required_exercise_is_shipped_and_valid() -> None:
    assert set(REQUIRED) <= set(CATALOG.slugs())
    assert CATALOG.problems() == []


@pytest.mark.parametrize("slug", sorted(CATALOG.slugs()))
def test_stated_facts_hold_for_the_reference(slug: str) -> None:
    loaded = exercise(slug)
    for entry in loaded.trees:
        result = loaded.reference(entry)
        stated = entry.expect
        if stated.value is not None:
            assert result.value == stated.value
        if stated.decision is not None:
            assert result.decision == stated.decision
        if stated.pruned is not None:
            assert result.trace.pruned() == list(stated.pruned)
        if stated.unvisited is not None:
            unvisited = [name for name in entry.tree.nodes if name not in result.trace.visited()]
            assert unvisited == list(stated.unvisited)
        if stated.nodes is not None:
            assert len(entry.tree) == stated.nodes
        if stated.leaves_evaluated is not None:
            assert len(result.trace.evaluated()) == stated.leaves_evaluated


# The facts below come from the textbook and shared/FIXTURES.md, not from the files.


def test_aima_fig52_is_the_textbook_tree() -> None:
    for slug in ("aima-fig5.2-minimax", "aima-fig5.2-alphabeta"):
        tree = exercise(slug).tree("fig5.2").tree
        assert [edge.action for edge in tree.root.edges] == ["a1", "a2", "a3"]
        assert tree.root.children == ("B", "C", "D")
        utilities = {leaf.name: leaf.utility for leaf in tree.leaves()}
        assert utilities == {
            "B1": 3, "B2": 12, "B3": 8, "C1": 2, "C2": 4, "C3": 6, "D1": 14, "D2": 5, "D3": 2,
        }  # fmt: skip
        assert [edge.action for edge in tree["C"].edges] == ["c1", "c2", "c3"]


def test_aima_fig52_alphabeta_leaves_c2_and_c3_unvisited() -> None:
    loaded = exercise("aima-fig5.2-alphabeta")
    result = loaded.reference(loaded.trees[0])
    assert (result.value, result.decision) == (3, "a1")
    visited = result.trace.visited()
    assert "C2" not in visited
    assert "C3" not in visited
    assert len(result.trace.evaluated()) == 7


def test_grundy_every_root_action_loses_for_max() -> None:
    for slug in ("grundy-7-minimax", "grundy-7-negamax"):
        loaded = exercise(slug)
        tree = loaded.trees[0].tree
        assert len(tree) == 24
        assert len(tree.leaves()) == 7
        values = search(tree, "minimax").trace.values()
        assert all(values[child] == -1 for child in tree.root.children)
    assert search(exercise("grundy-7-negamax").trees[0].tree, "negamax").value == -1


def test_fantan_max_wins_by_moving_to_one_and_one() -> None:
    tree = exercise("fantan-1-3-minimax").trees[0].tree
    assert len(tree) == 28
    assert len(tree.leaves()) == 12
    result = search(tree, "minimax")
    assert result.value == 1
    winning = [tree[edge.child].label for edge in tree.root.edges
               if result.trace.values()[edge.child] == 1]  # fmt: skip
    assert len(winning) == 1
    assert winning[0] is not None
    assert winning[0].replace(" ", "") in {"1-1", "(1,1)", "1,1", "[1,1]"}


@pytest.mark.parametrize("slug", ["tictactoe-seed-minimax", "tictactoe-seed-alphabeta"])
def test_tictactoe_seed_is_a_draw(slug: str) -> None:
    loaded = exercise(slug)
    assert loaded.reference(loaded.trees[0]).value == 0
    assert search(loaded.trees[0].tree, "minimax").value == 0


def test_tictactoe_depth2_uses_the_evaluation_at_depth_two() -> None:
    loaded = exercise("tictactoe-depth2-heuristic")
    assert loaded.options.depth_limit == 2
    result = loaded.reference(loaded.trees[0])
    tree = loaded.trees[0].tree
    assert all(tree.depth(name) == 2 for name in result.trace.evaluated())
    assert len(result.trace.evaluated()) == 9 * 8
    # X in the centre: O's best reply is a corner, X(s) - O(s) = 5 - 4 = 1; elsewhere less.
    assert result.value == 1
    centre = next(edge for edge in tree.root.edges if edge.action == "(2,2)")
    assert result.decision == centre.action


def test_expectimax_dice_expected_value_is_ten() -> None:
    loaded = exercise("expectimax-dice")
    tree = loaded.trees[0].tree
    result = loaded.reference(loaded.trees[0])
    assert result.value == 10
    first = tree[tree.root.children[0]]
    probabilities = [edge.probability for edge in first.edges]
    utilities = [tree[child].utility for child in first.children]
    assert sorted(map(str, probabilities)) == ["1/2", "1/3", "1/6"]
    assert utilities == [8, 24, -12]


def test_pruning_intuition_prunes_the_last_two_leaves() -> None:
    loaded = exercise("alphabeta-pruning-intuition")
    tree = loaded.trees[0].tree
    result = loaded.reference(loaded.trees[0])
    assert (result.value, result.decision) == (3, "a2")
    leaves = [leaf.name for leaf in tree.leaves()]
    assert result.trace.evaluated() == leaves[:-2]


def test_domineering_min_moves_first_and_loses_whatever_it_does() -> None:
    tree = exercise("domineering-small-alphabeta").trees[0].tree
    assert tree.root.kind == "MIN"
    values = search(tree, "minimax").trace.values()
    assert values[tree.root.name] == 1
    assert all(values[child] == 1 for child in tree.root.children)


def test_validate_accepts_the_whole_exercises_folder() -> None:
    from click.testing import CliRunner

    from grader.cli import main

    folder = Path(__file__).resolve().parents[2] / "exercises"
    paths = sorted(str(path) for path in folder.iterdir() if path.is_dir())
    result = CliRunner().invoke(main, ["exercises", "validate", *paths])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{len(paths)} file(s) valid\n"
