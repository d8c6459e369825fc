"""The replay of a public tree: sentences for each step, where the searches part, marks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from grader.web.replay import SIDES, describe, reference_marks, replay_data
from reference.exercises import load_catalog
from reference.hidden import DEVELOPMENT_KEY, LIBRARY_FOLDER, load_library
from reference.report import Step, TreeCase
from reference.treefile import parse_compact
from worker.grading import grade

REFERENCE = [
    {"node": "A", "event": "enter", "alpha": "-inf", "beta": "+inf"},
    {"node": "B", "event": "enter", "alpha": "-inf", "beta": "+inf"},
    {"node": "B1", "event": "enter", "alpha": "-inf", "beta": "+inf"},
    {"node": "B1", "event": "evaluate", "value": "2"},
    {"node": "B1", "event": "exit", "value": "2"},
    {
        "node": "B",
        "event": "exit",
        "value": "2",
        "cutoff": "v = 2 <= alpha = 3",
        "pruned": ["B2"],
    },
]


def case(first_divergence: Any = None, nodes: Any = None, **replay: Any) -> TreeCase:
    """A public tree's case with the replay ``replay`` (None: without one), its first
    divergence and its node verdicts."""
    found: dict[str, Any] = {"name": "t", "hidden": False, "verdict": "failed"}
    if replay:
        found["replay"] = {"student": [], "reference": [], "truncated": False, **replay}
    if first_divergence:
        found["first_divergence"] = first_divergence
    if nodes:
        found["nodes"] = [{"message": "", **node} for node in nodes]
    return TreeCase.model_validate(found)


def told(step: dict[str, Any]) -> str:
    return describe(Step.model_validate(step))


def test_steps_are_told_in_words() -> None:
    assert told(REFERENCE[0]) == "enter A (alpha = -inf, beta = +inf)"
    assert told(REFERENCE[3]) == "evaluate B1: 2"
    assert told(REFERENCE[5]) == "B returns 2 at once, since v = 2 <= alpha = 3 (B2 pruned)"
    assert told({"node": "C", "event": "exit", "value": None}) == "C returns nothing usable"


def test_the_first_step_where_the_searches_part_is_found() -> None:
    student = [*REFERENCE[:5], {"node": "B2", "event": "enter"}]
    data = replay_data(case(student=student, reference=REFERENCE))
    assert data is not None and data["differs"] == 5
    same = replay_data(case(student=REFERENCE, reference=REFERENCE))
    assert same is not None and same["differs"] is None
    assert replay_data(case()) is None


def test_a_decision_function_is_not_lined_up() -> None:
    data = replay_data(case(student=REFERENCE[2:], reference=REFERENCE, decision_style=True))
    assert data is not None and data["differs"] is None and data["decision_style"]


def test_reference_marks_show_the_cut_branch() -> None:
    tree = parse_compact("MAX[ MIN[2 MAX[4 6]] ]")
    steps = [*REFERENCE[:5], {**REFERENCE[5], "pruned": ["B2"]}]
    marks = reference_marks(tree, case(reference=steps))
    assert marks["B2"].cut and marks["B2"].css_class == "pruned"
    assert marks["B2.1"].css_class == "pruned" and not marks["B2.1"].cut
    assert marks["B"].css_class == "visited" and marks["B"].label == "2"


ALPHA_NEVER_UPDATED = [
    *REFERENCE[:5],
    {"node": "B", "event": "exit", "value": "2"},
    {"node": "C", "event": "enter", "alpha": "-inf", "beta": "+inf"},
]
REFERENCE_ON = [
    *ALPHA_NEVER_UPDATED[:6],
    {"node": "C", "event": "enter", "alpha": "2", "beta": "+inf"},
]


def test_a_step_differs_in_its_window_and_the_part_is_named() -> None:
    divergence = {"node": "C", "message": "C received alpha = -inf"}
    nodes = [{"node": "C", "verdict": "wrong_bounds"}]
    data = replay_data(
        case(
            student=ALPHA_NEVER_UPDATED,
            reference=REFERENCE_ON,
            first_divergence=divergence,
            nodes=nodes,
        )
    )
    assert data is not None
    assert (data["differs"], data["parts"], data["agrees"], data["why"]) == (
        6,
        ["alpha"],
        True,
        None,
    )
    text, spans = data["student"][6]["text"], data["diffs"][6]["student"]
    assert [text[start:end] for start, end in spans] == ["alpha = -inf"]
    text, spans = data["reference"][6]["text"], data["diffs"][6]["reference"]
    assert [text[start:end] for start, end in spans] == ["alpha = 2"]


def test_a_value_the_feedback_accepts_is_no_difference() -> None:
    fail_hard = [*REFERENCE[:4], {"node": "B1", "event": "exit", "value": "3"}]
    accepted = case(
        student=fail_hard, reference=REFERENCE[:5], nodes=[{"node": "B1", "verdict": "ok"}]
    )
    wrong = case(
        student=fail_hard, reference=REFERENCE[:5], nodes=[{"node": "B1", "verdict": "wrong_value"}]
    )
    assert (replay_data(accepted) or {})["differs"] is None
    assert (replay_data(wrong) or {})["parts"] == ["value"]


def test_where_the_searches_part_the_choosing_node_is_the_divergence() -> None:
    # Right to left: the root's loop enters D where the reference enters B.
    student = [REFERENCE[0], {"node": "D", "event": "enter"}]
    found = case(
        student=student, reference=REFERENCE, first_divergence={"node": "A", "message": "order"}
    )
    data = replay_data(found)
    assert data is not None and (data["differs"], data["agrees"]) == (1, True)


def test_a_truncated_replay_says_it_cannot_show_the_divergence() -> None:
    found = case(
        student=REFERENCE[:3],
        reference=REFERENCE[:3],
        truncated=True,
        first_divergence={"node": "C", "message": "C received alpha = -inf"},
    )
    data = replay_data(found)
    assert data is not None and data["differs"] is None and data["agrees"] is False
    assert "cut before your search reached C" in data["why"]


def test_a_depth_limited_reference_is_given_its_depths() -> None:
    student = [
        {"node": "A", "event": "enter", "depth": 2},
        {"node": "B", "event": "enter", "depth": 2},
    ]
    reference = [{"node": "A", "event": "enter"}, {"node": "B", "event": "enter"}]
    data = replay_data(
        case(
            student=student, reference=reference, first_divergence={"node": "B", "message": "depth"}
        )
    )
    assert data is not None and (data["differs"], data["parts"], data["agrees"]) == (
        1,
        ["depth"],
        True,
    )
    assert data["reference"][1]["text"] == "enter B (depth = 1)"


# -- the wrong implementations of the library, graded on their exercises: by default up to
# the first whose replay lines up; every one of them in the exhaustive set ---------------

EXERCISES = Path(__file__).resolve().parents[3] / "exercises"
CATALOG = load_catalog(EXERCISES)
LIBRARY = load_library(EXERCISES / LIBRARY_FOLDER)


def _replays_lined_up(slug: str, *, every: bool) -> int:
    """How many replays of ``slug``'s wrong implementations (graded in name order) were
    checked against their first divergence: all of them when ``every``, else up to the
    first one checked."""
    exercise = CATALOG.get(slug)
    checked = 0
    for implementation in LIBRARY:
        if not (implementation.written_for(exercise) and implementation.is_wrong_for(exercise)):
            continue
        # Only public trees have replays; the diagnosis adds nothing to them.
        report = grade(
            exercise,
            implementation.source,
            implementation.path.name,
            key=DEVELOPMENT_KEY,
            exercises_dir=EXERCISES,
            public_only=True,
            diagnose=False,
        )
        for found in report.cases:
            data = replay_data(found)
            if data is None or data["decision_style"] or found.first_divergence is None:
                continue
            where = f"{implementation.name} on {found.name}"
            step = data["differs"]
            assert data["agrees"], f"{where}: step {step} against {data['divergence']}"
            assert data["why"] is None
            nodes = {data[side][step]["node"] for side in SIDES if step < len(data[side])}
            assert data["divergence"] in nodes or data["parts"] == ["node"], where
            checked += 1
        if checked and not every:
            break
    return checked


TEXTBOOK = [slug for slug in CATALOG.slugs() if CATALOG.get(slug).contract.name == "textbook"]
"""The exercises the library's files (written to the textbook's contract) are handed in to."""


@pytest.mark.parametrize("slug", TEXTBOOK)
def test_the_first_different_step_is_at_the_first_divergence(slug: str) -> None:
    assert _replays_lined_up(slug, every=False), f"no replay was lined up on {slug}"


@pytest.mark.slow
@pytest.mark.exhaustive
@pytest.mark.parametrize("slug", TEXTBOOK)
def test_every_wrong_implementations_first_different_step_is_at_its_divergence(
    slug: str,
) -> None:
    assert _replays_lined_up(slug, every=True), f"no replay was lined up on {slug}"


CONTRACT_CASES = [
    # exercise, the student's file, whether it is right
    ("cs188-alphabeta-one-ghost", "cs188_agents/correct_alphabeta.py", True),
    ("cs188-alphabeta-one-ghost", "cs188_agents/wrong_alphabeta_generates_first.py", False),
    ("cs188-alphabeta-one-ghost", "cs188_agents/wrong_alphabeta_prunes_on_equality.py", False),
    ("mit6034-toy-alphabeta", "mit6034/correct_lab.py", True),
    ("mit6034-toy-alphabeta", "mit6034/wrong_no_pruning.py", False),
]
"""Searches written to other courses' contracts: no entry function is wrapped, so their
steps are read from the game calls and the values their own functions returned."""


@pytest.mark.parametrize(("slug", "file", "right"), CONTRACT_CASES)
def test_a_contract_searchs_replay_has_the_references_steps_until_its_divergence(
    slug: str, file: str, right: bool
) -> None:
    data_folder = Path(__file__).resolve().parents[2] / "worker" / "data"
    source = (data_folder / file).read_text()
    if file.startswith("cs188_agents/"):
        source = (data_folder / "cs188_agents" / "_base.py").read_text() + "\n\n" + source
    report = grade(
        CATALOG.get(slug),
        source,
        "submission.py",
        key=DEVELOPMENT_KEY,
        exercises_dir=EXERCISES,
        public_only=True,
    )
    data = replay_data(report.cases[0])
    assert data is not None and not data["decision_style"]
    if right:
        assert data["differs"] is None, data["differs"]
        assert [(step["node"], step["event"]) for step in data["student"]] == [
            (step["node"], step["event"]) for step in data["reference"]
        ]
        return
    divergence = report.cases[0].first_divergence
    assert divergence is not None and data["agrees"], (data["differs"], data["divergence"])
    step = data["differs"]
    nodes = {data[side][step]["node"] for side in SIDES if step < len(data[side])}
    assert data["divergence"] in nodes or data["parts"] == ["node"]
