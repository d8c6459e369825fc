"""YAML tags and aliases in exercise and tree files are refused as located problems: no
Python object is built, no traceback, and an alias bomb is refused before it expands."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from grader.cli import main as grader_cli
from reference import treefile
from reference.exercises import load_exercise
from reference.problems import FileProblems
from reference.yamldoc import TAG_REFUSED

FIGURE = Path(__file__).resolve().parents[2] / "exercises" / "aima-fig5.2-minimax"

TAGGED_TITLES = {
    "python-apply": 'title: !!python/object/apply:os.system ["touch {marker}"]',
    "python-name": "title: !!python/name:os.system",
    "binary": "title: !!binary aGVsbG8=",
    "custom": "title: !foo bar",
}

BOMB = "\n".join(
    [
        "title: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]",
        *(f"x{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)),
        "algorithm: minimax",
    ]
)
"""A billion laughs: nine levels of nine aliases each (9**10 strings once expanded)."""


def exercise_folder(tmp_path: Path, first_line: str) -> Path:
    """The shipped minimax exercise with its first line (the title) replaced."""
    folder = tmp_path / "tagged"
    shutil.copytree(FIGURE, folder)
    path = folder / "exercise.yaml"
    lines = path.read_text().splitlines()
    path.write_text("\n".join([first_line, *lines[1:]]) + "\n")
    return folder


@pytest.mark.parametrize("kind", sorted(TAGGED_TITLES))
def test_a_tag_in_an_exercise_file_is_a_located_problem(tmp_path: Path, kind: str) -> None:
    marker = tmp_path / "ran"
    folder = exercise_folder(tmp_path, TAGGED_TITLES[kind].format(marker=marker))

    with pytest.raises(FileProblems) as raised:
        load_exercise(folder)

    [problem] = raised.value.problems
    assert (problem.file, problem.line, problem.column) == (
        str(folder / "exercise.yaml"),
        1,
        8,
    )
    assert problem.message == TAG_REFUSED
    assert "!!python/object/apply are not allowed" in problem.message
    assert not marker.exists()


@pytest.mark.parametrize("kind", sorted(TAGGED_TITLES))
def test_grader_exercises_validate_prints_the_tag_problem_without_a_traceback(
    tmp_path: Path, kind: str
) -> None:
    marker = tmp_path / "ran"
    folder = exercise_folder(tmp_path, TAGGED_TITLES[kind].format(marker=marker))

    result = CliRunner().invoke(grader_cli, ["exercises", "validate", str(folder)])

    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{folder / 'exercise.yaml'}:1:8: {TAG_REFUSED}" in result.output
    assert "Traceback" not in result.output
    assert not marker.exists()


def test_a_tag_in_a_tree_file_is_a_located_problem(tmp_path: Path) -> None:
    path = tmp_path / "tagged.tree.yaml"
    original = (FIGURE / "fig5.2.tree.yaml").read_text()
    path.write_text(original.replace("B1: 3", "B1: !!python/object/apply:os.getcwd []"))
    assert path.read_text() != original

    problems = treefile.validate(path)

    assert [(problem.line, problem.column, problem.message) for problem in problems] == [
        (9, 7, TAG_REFUSED)
    ]


def test_an_alias_bomb_is_refused_before_it_expands(tmp_path: Path) -> None:
    folder = exercise_folder(tmp_path, BOMB)

    started = time.monotonic()
    with pytest.raises(FileProblems) as raised:
        load_exercise(folder)
    spent = time.monotonic() - started

    [problem] = raised.value.problems
    assert (problem.line, "aliases") == (2, "aliases") and "aliases" in problem.message
    assert spent < 5.0
