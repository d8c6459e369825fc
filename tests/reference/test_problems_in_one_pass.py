"""An exercise with many independent problems: every one is reported in a single pass.

Problems used to arrive in waves: exercise.yaml's schema problems first, then a tree file's
shape, then its undefined children and unreachable nodes. Each case here holds problems of
several waves at once and expects them all, located, from one load.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reference.exercises import load_exercise
from reference.problems import FileProblems, Problem
from reference.treefile import validate

EXERCISE = (
    "title: T\n"
    "algorithm: alphabeta\n"
    "limits:\n"
    "  cpu: 3\n"  # 4: an unknown key
    "trees:\n"
    "  - name: first\n"
    "    file: first.tree.yaml\n"
    "  - name: second\n"
    "    file: second.tree.yaml\n"
    "    colour: red\n"  # 10: an unknown key beside a tree file that has problems too
    "  - name: inline\n"
    "    tree: 'MAX[1 2]'\n"
    "    expect: {value: 5, decision: a9}\n"  # 13: a wrong value and an unknown action
)

FIRST = (
    "root: A\n"
    "nodes:\n"
    "  A: {kind: MAX, children: {a1: B, a2: C, a3: D}}\n"
    "  B: .nan\n"  # 4: a bad leaf value
    "  C: {kind: MIN, children: {c1: C1, c2: C9}, colour: red}\n"  # 5: undefined child, key
    "  C1: 1\n"
    "  D: 2\n"
)

SECOND = (
    "root: A\n"
    "nodes:\n"
    "  A: {kind: MAX, children: {a1: B}}\n"
    "  B: {kind: MIN, children: {b1: A}}\n"  # 4: a cycle back to the root
    "  E: 1\n"  # 5: unreachable
)


def make_exercise(tmp_path: Path, text: str, **trees: str) -> Path:
    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "exercise.yaml").write_text(text, encoding="utf-8")
    for name, content in trees.items():
        (folder / f"{name}.tree.yaml").write_text(content, encoding="utf-8")
    return folder


def problems_of(folder: Path) -> list[tuple[str, int, int, str]]:
    with pytest.raises(FileProblems) as caught:
        load_exercise(folder)
    prefix = f"{folder}/"
    return [
        (p.file.removeprefix(prefix), p.line, p.column, p.message) for p in caught.value.problems
    ]


def test_problems_of_exercise_yaml_and_of_two_tree_files_come_in_one_pass(
    tmp_path: Path,
) -> None:
    folder = make_exercise(tmp_path, EXERCISE, first=FIRST, second=SECOND)
    found = [(file, line, column) for file, line, column, _ in problems_of(folder)]
    assert found == [
        ("exercise.yaml", 4, 3),
        ("exercise.yaml", 10, 5),
        ("exercise.yaml", 13, 21),
        ("exercise.yaml", 13, 34),
        ("first.tree.yaml", 4, 6),
        ("first.tree.yaml", 5, 41),
        ("first.tree.yaml", 5, 46),
        ("second.tree.yaml", 4, 33),
        ("second.tree.yaml", 5, 3),
    ]


def test_each_problem_of_the_single_pass_says_what_is_wrong(tmp_path: Path) -> None:
    folder = make_exercise(tmp_path, EXERCISE, first=FIRST, second=SECOND)
    messages = [message for *_, message in problems_of(folder)]
    assert messages[0].startswith("unknown key 'cpu'")
    assert messages[1].startswith("unknown key 'colour'")
    assert messages[2] == "expected value 5, but alphabeta gives 2"
    assert messages[3] == "decision 'a9' is not an action of the root"
    assert "'.nan' is not a finite number" in messages[4]
    assert messages[5] == "'C' leads to 'C9', which is not defined"
    assert messages[6].startswith("unknown key 'colour' in node 'C'")
    assert messages[7] == "node 'A' is reached a second time (a tree node has one parent)"
    assert messages[8] == "node 'E' is not reachable from the root 'A'"


def test_a_tree_file_shared_by_two_trees_reports_its_problems_once(tmp_path: Path) -> None:
    text = (
        "title: T\nalgorithm: minimax\ntrees:\n"
        "  - {name: one, file: first.tree.yaml}\n"
        "  - {name: two, file: first.tree.yaml}\n"
    )
    found = problems_of(make_exercise(tmp_path, text, first=FIRST))
    assert len(found) == len(set(found)) == 3


def test_trees_are_checked_beside_a_missing_title_and_an_unknown_algorithm(
    tmp_path: Path,
) -> None:
    text = "algorithm: mcts\ntrees:\n  - {name: t, file: first.tree.yaml}\n"
    found = problems_of(make_exercise(tmp_path, text, first=FIRST))
    assert [(file, line) for file, line, *_ in found] == [
        ("exercise.yaml", 1),
        ("exercise.yaml", 1),
        ("first.tree.yaml", 4),
        ("first.tree.yaml", 5),
        ("first.tree.yaml", 5),
    ]


def test_a_search_that_cannot_be_set_up_leaves_the_trees_checked(tmp_path: Path) -> None:
    text = "title: T\nalgorithm: depth-limited-minimax\ntrees: [{name: t, file: s.tree.yaml}]\n"
    found = problems_of(make_exercise(tmp_path, text, s=SECOND))
    assert [(file, line) for file, line, *_ in found] == [
        ("exercise.yaml", 2),
        ("s.tree.yaml", 4),
        ("s.tree.yaml", 5),
    ]
    assert "needs a depth limit" in found[0][3]


def test_a_tree_file_reports_its_shape_and_its_references_together(tmp_path: Path) -> None:
    path = tmp_path / "case.tree.yaml"
    path.write_text(
        "root: A\n"
        "nodes:\n"
        "  A: {kind: MAX, children: {a1: B, a2: C, a3: Z}}\n"  # 3: Z is defined nowhere
        "  B: {kind: MIN, children: {b1: B1}, utilty: 3}\n"  # 4: an unknown key
        "  B1: twelve\n"  # 5: not a number
        "  C: {kind: MAXIMUM, children: {c1: C1}}\n"  # 6: a bad kind; C1 is still its child
        "  C1: 4\n"
        "  X: 1\n",  # 8: unreachable
        encoding="utf-8",
    )
    found = validate(path)
    assert [(p.line, p.column) for p in found] == [(3, 47), (4, 38), (5, 7), (6, 13), (8, 3)]
    assert found[0].message == "'A' leads to 'Z', which is not defined"
    assert found[4].message == "node 'X' is not reachable from the root 'A'"


def test_a_node_written_wrongly_still_counts_as_defined(tmp_path: Path) -> None:
    path = tmp_path / "case.tree.yaml"
    path.write_text(
        "root: A\nnodes:\n  A: {kind: MAX, children: {a1: B}}\n  B: 1/0\n", encoding="utf-8"
    )
    assert validate(path) == [
        Problem(
            str(path), 4, 6, "the utility of 'B' must be a finite number: '1/0' divides by zero"
        )
    ]
