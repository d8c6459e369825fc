"""The tree document the feedback page's tree views draw (grader.web.feedback), from real
reports: solutions graded in this process by the sandbox on shipped and generated trees."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from grader.web.feedback import GLYPHS, MESSAGES, tree_document, value_text
from reference.exercises.loader import load_exercise
from reference.exercises.model import Exercise
from reference.games.expand import expand
from reference.games.registry import make_game
from reference.report import Report
from worker.grading import grade

ROOT = Path(__file__).resolve().parents[3]
EXERCISES = ROOT / "exercises"
LIBRARY = EXERCISES / "implementations"
MACROS = ROOT / "grader" / "web" / "templates" / "student" / "_macros.html"


def graded(exercise: Exercise, folder: Path, solution: str) -> Report:
    source = (LIBRARY / solution).read_text(encoding="utf-8")
    return grade(exercise, source, "search.py", key=b"k" * 32, exercises_dir=folder)


def nodes_of(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The document's nodes by name, each with the keys it has a value for."""
    columns = document["columns"]
    rows = [
        {key: column[at] for key, column in columns.items() if column[at] is not None}
        for at in range(len(columns["n"]))
    ]
    return {row["n"]: row for row in rows}


def document_of(slug: str, solution: str) -> dict[str, Any]:
    exercise = load_exercise(EXERCISES / slug)
    report = graded(exercise, EXERCISES, solution)
    public = exercise.trees[0]
    return tree_document(public.tree, report.cases[0])


def test_figure_5_2_with_alpha_never_updated() -> None:
    document = document_of("aima-fig5.2-alphabeta", "alphabeta/wrong_alpha_never_updated.py")
    nodes = nodes_of(document)

    assert list(nodes) == ["A", "B", "B1", "B2", "B3", "C", "C1", "C2", "C3", "D", "D1", "D2", "D3"]
    assert document["divergence"] == "C"
    names = list(nodes)
    assert "p" not in nodes["A"] and names[nodes["C2"]["p"]] == "C"
    assert (nodes["A"]["k"], nodes["B"]["k"], nodes["B1"]["k"]) == ("max", "min", "leaf")
    # The student's verdicts, values and sentences.
    assert nodes["C"]["v"] == "wrong_bounds" and nodes["C"]["s"] == "2"
    assert nodes["C"]["e"] == "alpha = 3, beta = +inf"
    assert nodes["C"]["c"] == "alpha = -inf, beta = +inf"
    assert "received alpha = -inf" in nodes["C"]["m"]
    assert nodes["C2"]["v"] == "extra" and nodes["C2"]["s"] == "4" and nodes["C2"]["u"] == "4"
    assert nodes["B2"]["v"] == "ok" and nodes["B2"]["s"] == "12" and "m" not in nodes["B2"]
    assert nodes["B2"]["e"] == "[3, 12]"  # the interval an ok value was allowed in
    # The reference search: C2 and C3 pruned by the cut-off at C, the rest visited.
    assert nodes["C2"]["r"] == "p" and nodes["C2"]["cut"] == 1
    assert nodes["C3"]["r"] == "p" and nodes["C3"]["cut"] == 1
    assert nodes["B2"]["r"] == "v" and nodes["B2"]["rw"] == "alpha = -inf, beta = 3"
    assert nodes["C"]["rw"] == "alpha = 3, beta = +inf"
    assert all(node["r"] in ("v", "p") for node in nodes.values())
    assert document["glyphs"] == dict(GLYPHS)


def test_a_wrong_value_shows_the_expected_one_beside_it() -> None:
    document = document_of("grundy-7-minimax", "minimax/wrong_utility_for_min.py")
    wrong = [node for node in nodes_of(document).values() if node.get("v") == "wrong_value"]

    assert wrong
    assert all(node["x"] != node["s"] for node in wrong)
    assert all(
        node.get("x") is None for node in nodes_of(document).values() if node.get("v") == "ok"
    )


def test_every_node_of_a_generated_game_carries_its_position() -> None:
    document = document_of("grundy-7-minimax", "minimax/correct_plain.py")
    nodes = nodes_of(document)

    assert len(nodes) == 24
    assert all(re.fullmatch(r"\d+(-\d+)*", node.get("g", "")) for node in nodes.values())
    assert nodes["A"]["g"] == "7"
    assert all(node["v"] == "ok" for node in nodes.values())
    assert document["divergence"] is None


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("tictactoe", {"position": "XO./.X./..."}),
        ("nim", {"compartments": [1, 2]}),
        ("grundy", {"pile": 6}),
        ("hexapawn", {}),
        ("domineering", {}),
    ],
)
def test_every_game_generator_labels_every_node(game: str, options: dict[str, Any]) -> None:
    tree = expand(make_game(game, **options), max_nodes=200_000)
    assert all(node.label for node in tree)


def test_chance_edges_carry_their_probability() -> None:
    document = document_of("expectimax-dice", "expectimax/correct_expectimax.py")
    nodes = nodes_of(document)

    assert nodes["B"]["k"] == "chance"
    assert (nodes["B1"]["q"], nodes["B2"]["q"], nodes["B3"]["q"]) == ("1/2", "1/3", "1/6")
    assert nodes["B"]["s"] == "10" and nodes["A"]["s"] == "10"


def test_values_are_short_texts() -> None:
    assert value_text(3) == "3" and value_text(3.0) == "3" and value_text(20 / 3) == "6.66667"
    assert value_text(float("inf")) == "+inf" and value_text("-inf") == "-inf"
    assert value_text("x" * 100) == "x" * 23 + "\u2026"
    assert value_text(None) is None


def test_the_legend_shows_every_verdicts_glyph() -> None:
    legend = MACROS.read_text(encoding="utf-8")
    for verdict, glyph in GLYPHS.items():
        assert f'"{verdict}": "{glyph}"' in legend


def test_a_tree_of_4348_nodes_wrong_everywhere_fits_in_well_under_a_megabyte(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "nim-1-3-4"
    folder.mkdir()
    (folder / "exercise.yaml").write_text(
        'title: "Nim 1 3 4"\nalgorithm: minimax\nstatement: |\n  Nim.\ntrees:\n'
        "  - name: nim-1-3-4\n    game: {name: nim, options: {compartments: [1, 3, 4]}}\n"
    )
    exercise = load_exercise(folder)
    report = graded(exercise, tmp_path, "minimax/wrong_utility_for_min.py")

    document = tree_document(exercise.trees[0].tree, report.cases[0])

    size = len(json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode())
    nodes = nodes_of(document)
    assert len(nodes) == 4348
    wrong = [node for node in nodes.values() if node.get("v") == "wrong_value"]
    assert len(wrong) > MESSAGES
    assert sum("m" in node for node in nodes.values()) <= MESSAGES + 1
    assert size < 600_000, size
