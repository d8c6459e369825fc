"""An exercise's ``expect:`` facts are checked against the reference search when it loads."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.config import Settings
from reference.exercises import load_catalog
from reference.exercises.loader import load_exercise
from reference.problems import FileProblems

FIGURE = """\
title: "Alpha-beta on Figure 5.2"
algorithm: alphabeta
trees:
  - name: fig5.2
    tree: "MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]"
    expect:
      value: {value}
      decision: {decision}
      pruned: {pruned}
      unvisited: [C2, C3]
      nodes: {nodes}
      leaves_evaluated: {leaves}
"""
RIGHT = {"value": 3, "decision": "a1", "pruned": "[C2, C3]", "nodes": 13, "leaves": 7}


def write(tmp_path: Path, text: str, slug: str = "figure") -> Path:
    folder = tmp_path / slug
    folder.mkdir()
    (folder / "exercise.yaml").write_text(text, encoding="utf-8")
    return folder


def problems_of(folder: Path) -> list[tuple[int, int, str]]:
    with pytest.raises(FileProblems) as raised:
        load_exercise(folder)
    return [(problem.line, problem.column, problem.message) for problem in raised.value.problems]


def test_true_expectations_load(tmp_path: Path) -> None:
    exercise = load_exercise(write(tmp_path, FIGURE.format(**RIGHT)))
    assert exercise.trees[0].expect.value == 3


def test_a_wrong_value_is_refused_with_its_line(tmp_path: Path) -> None:
    folder = write(tmp_path, FIGURE.format(**{**RIGHT, "value": 5}))

    assert problems_of(folder) == [(7, 14, "expected value 5, but alphabeta gives 3")]


def test_every_wrong_fact_is_a_problem_of_its_own(tmp_path: Path) -> None:
    wrong = {"value": "7/2", "decision": "a2", "pruned": "[C3]", "nodes": 12, "leaves": 9}
    folder = write(tmp_path, FIGURE.format(**wrong))

    assert problems_of(folder) == [
        (7, 14, "expected value 7/2, but alphabeta gives 3"),
        (8, 17, "expected decision a2, but alphabeta gives a1"),
        (9, 15, "expected pruned [C3], but alphabeta gives [C2, C3]"),
        (11, 14, "expected nodes 12, but the tree has 13"),
        (12, 25, "expected leaves_evaluated 9, but alphabeta gives 7"),
    ]


def test_unvisited_nodes_are_checked_under_the_exercise_conventions(tmp_path: Path) -> None:
    # Searched right to left, Figure 5.2 prunes nothing: C2 and C3 are visited.
    text = FIGURE.format(**{**RIGHT, "pruned": "[]"}).replace(
        "trees:", "conventions:\n  order: right-to-left\ntrees:"
    )
    folder = write(tmp_path, text)

    assert problems_of(folder) == [
        (12, 18, "expected unvisited [C2, C3], but alphabeta gives []"),
        (14, 25, "expected leaves_evaluated 7, but alphabeta gives 9"),
    ]


def test_a_fraction_and_its_decimal_are_the_same_value(tmp_path: Path) -> None:
    text = """\
title: "A coin"
algorithm: expectimax
trees:
  - name: coin
    tree: "MAX[ CHANCE[1/10*1 9/10*0] ]"
    expect:
      value: 0.1
"""
    assert load_exercise(write(tmp_path, text)).trees[0].expect.value == 0.1


def test_every_shipped_exercise_states_only_what_holds() -> None:
    catalog = load_catalog(Settings().exercises_dir)
    assert catalog.problems() == []
    assert catalog.slugs()
