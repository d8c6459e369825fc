"""Malformed exercise files: every problem is named with its file, line and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference.exercises import load_exercise
from reference.problems import FileProblems, Problem

GOOD_TREE = "root: A\nnodes:\n  A: {kind: MAX, children: {a1: B}}\n  B: 1\n"


def make_exercise(tmp_path: Path, text: str, slug: str = "demo", **files: str) -> Path:
    folder = tmp_path / slug
    folder.mkdir()
    (folder / "exercise.yaml").write_text(text, encoding="utf-8")
    for name, content in files.items():
        (folder / name.replace("_", ".")).write_text(content, encoding="utf-8")
    return folder


def problems_of(folder: Path) -> list[Problem]:
    with pytest.raises(FileProblems) as caught:
        load_exercise(folder)
    return caught.value.problems


def only_problem(folder: Path) -> Problem:
    [problem] = problems_of(folder)
    return problem


def test_a_valid_exercise_loads_with_defaults(tmp_path: Path) -> None:
    folder = make_exercise(
        tmp_path,
        "title: T\nalgorithm: alphabeta\ntrees:\n  - name: t\n    file: t.tree.yaml\n",
        t_tree_yaml=GOOD_TREE,
    )
    exercise = load_exercise(folder)
    assert exercise.slug == "demo"
    assert exercise.entry_points == ("max_value", "min_value")
    assert exercise.options.prune_on_equality
    assert exercise.scoring.total == 100
    assert exercise.hidden.count == 8


def test_unknown_key_is_located_and_allowed_keys_listed(tmp_path: Path) -> None:
    text = "title: T\nalgorithm: minimax\nlimits:\n  cpu: 3\ntrees:\n  - {name: t, tree: '1'}\n"
    problem = only_problem(make_exercise(tmp_path, text))
    assert (problem.line, problem.column) == (4, 3)
    assert "unknown key 'cpu'" in problem.message
    assert "cpu_seconds" in problem.message


def test_missing_title(tmp_path: Path) -> None:
    problem = only_problem(
        make_exercise(tmp_path, "algorithm: minimax\ntrees: [{name: t, tree: '1'}]\n")
    )
    assert (problem.line, problem.column) == (1, 1)
    assert "missing required key 'title'" in problem.message


def test_unknown_algorithm(tmp_path: Path) -> None:
    problem = only_problem(
        make_exercise(tmp_path, "title: T\nalgorithm: mcts\ntrees: [{name: t, tree: '1'}]\n")
    )
    assert (problem.line, problem.column) == (2, 12)
    assert "unknown algorithm 'mcts'" in problem.message


def test_tree_source_must_be_exactly_one(tmp_path: Path) -> None:
    text = "title: T\nalgorithm: minimax\ntrees:\n  - name: t\n    tree: '1'\n    file: x\n"
    problem = only_problem(make_exercise(tmp_path, text))
    assert (problem.line, problem.column) == (4, 5)
    assert "exactly one of 'file', 'tree' or 'game'" in problem.message


def test_tree_file_outside_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.tree.yaml").write_text(GOOD_TREE)
    text = "title: T\nalgorithm: minimax\ntrees:\n  - name: t\n    file: ../secret.tree.yaml\n"
    problem = only_problem(make_exercise(tmp_path, text))
    assert (problem.line, problem.column) == (5, 11)
    assert "outside the exercise folder" in problem.message


def test_missing_tree_file(tmp_path: Path) -> None:
    text = "title: T\nalgorithm: minimax\ntrees:\n  - name: t\n    file: nope.tree.yaml\n"
    problem = only_problem(make_exercise(tmp_path, text))
    assert "does not exist" in problem.message


def test_problems_in_a_tree_file_name_that_file(tmp_path: Path) -> None:
    folder = make_exercise(
        tmp_path,
        "title: T\nalgorithm: minimax\ntrees:\n  - name: t\n    file: t.tree.yaml\n",
        t_tree_yaml="root: A\nnodes:\n  A: {kind: MAX, children: {a1: B}}\n  B: nan\n",
    )
    problem = only_problem(folder)
    assert problem.file.endswith("t.tree.yaml")
    assert problem.line == 4


def test_compact_syntax_error_is_located_in_the_exercise_file(tmp_path: Path) -> None:
    text = "title: T\nalgorithm: minimax\ntrees:\n  - name: t\n    tree: 'MAX[ 1 2 ?? ]'\n"
    problem = only_problem(make_exercise(tmp_path, text))
    assert problem.file.endswith("exercise.yaml")
    assert (problem.line, problem.column) == (5, 21)


def test_expectations_must_name_real_nodes_and_actions(tmp_path: Path) -> None:
    text = (
        "title: T\nalgorithm: alphabeta\ntrees:\n  - name: t\n    tree: 'MAX[1 2]'\n"
        "    expect:\n      decision: a9\n      pruned: [Z]\n"
    )
    problems = problems_of(make_exercise(tmp_path, text))
    assert [(p.line, p.column) for p in problems] == [(7, 17), (8, 15)]
    assert "not an action of the root" in problems[0].message
    assert "not in the tree: Z" in problems[1].message


def test_unknown_game_and_bad_game_options(tmp_path: Path) -> None:
    text = "title: T\nalgorithm: minimax\ntrees:\n  - name: t\n    game: {name: chess}\n"
    problem = only_problem(make_exercise(tmp_path, text))
    assert (problem.line, problem.column) == (5, 11)
    assert "unknown game 'chess'" in problem.message
    text = (
        "title: T\nalgorithm: minimax\ntrees:\n"
        "  - name: t\n    game: {name: grundy, options: {pile: -3}}\n"
    )
    problem = only_problem(make_exercise(tmp_path, text, slug="other"))
    assert "game 'grundy'" in problem.message


def test_algorithm_that_cannot_search_the_tree(tmp_path: Path) -> None:
    text = (
        "title: T\nalgorithm: minimax\ntrees:\n  - name: t\n    tree: 'MAX[CHANCE[1/2*1 1/2*2]]'\n"
    )
    problem = only_problem(make_exercise(tmp_path, text))
    assert "cannot search CHANCE node" in problem.message


def test_depth_limited_needs_a_depth_limit(tmp_path: Path) -> None:
    text = "title: T\nalgorithm: depth-limited-minimax\ntrees: [{name: t, tree: 'MAX[1 2]'}]\n"
    problem = only_problem(make_exercise(tmp_path, text))
    assert (problem.line, problem.column) == (2, 12)
    assert "needs a depth limit" in problem.message


def test_duplicate_keys_and_tree_names(tmp_path: Path) -> None:
    text = (
        "title: T\ntitle: U\nalgorithm: minimax\n"
        "trees: [{name: t, tree: '1'}, {name: t, tree: '2'}]\n"
    )
    problems = problems_of(make_exercise(tmp_path, text))
    assert any(p.line == 2 and "'title' is given twice" in p.message for p in problems)


def test_empty_and_non_utf8_exercise_files(tmp_path: Path) -> None:
    problem = only_problem(make_exercise(tmp_path, ""))
    assert "empty" in problem.message
    folder = make_exercise(tmp_path, "", slug="bytes")
    (folder / "exercise.yaml").write_bytes(b"title: caf\xe9\n")
    problem = only_problem(folder)
    assert (problem.line, problem.column) == (1, 11)
    assert "UTF-8" in problem.message


def test_bad_slug_folder_name(tmp_path: Path) -> None:
    problem = only_problem(
        make_exercise(
            tmp_path,
            "title: T\nalgorithm: minimax\ntrees: [{name: t, tree: '1'}]\n",
            slug="Bad Name",
        )
    )
    assert "not a valid slug" in problem.message


@pytest.mark.parametrize(
    ("setting", "value", "column", "told"),
    [
        ("hidden_share", "1.5", 17, "from 0 to 1 or 'per_tree', not 1.5"),
        ("hidden_share", "-0.25", 17, "from 0 to 1 or 'per_tree', not -0.25"),
        ("hidden_share", "half", 17, "from 0 to 1 or 'per_tree', not 'half'"),
        ("hidden_credit", "most", 18, "'partial' or 'whole'"),
    ],
)
def test_a_hidden_share_outside_0_to_1_or_an_unknown_word_is_located(
    tmp_path: Path, setting: str, value: str, column: int, told: str
) -> None:
    text = (
        "title: T\nalgorithm: minimax\n"
        f"scoring:\n  {setting}: {value}\n"
        "trees: [{name: t, tree: '1'}]\n"
    )
    problem = only_problem(make_exercise(tmp_path, text))
    assert (problem.line, problem.column) == (4, column)
    assert problem.message.startswith(f"scoring.{setting}: ")
    assert told in problem.message


def test_the_hidden_share_takes_0_1_and_per_tree(tmp_path: Path) -> None:
    for value, expected in [("0", 0), ("1", 1), ("0.25", 0.25), ("per_tree", "per_tree")]:
        text = (
            "title: T\nalgorithm: minimax\n"
            f"scoring: {{hidden_share: {value}, hidden_credit: whole}}\n"
            "trees: [{name: t, tree: '1'}]\n"
        )
        folder = make_exercise(tmp_path, text, slug=f"share-{value.replace('_', '-')}")
        scoring = load_exercise(folder).scoring
        assert (scoring.hidden_share, scoring.hidden_credit) == (expected, "whole")
