"""The replay of a public tree: sentences for each step, where the searches part, marks."""

from __future__ import annotations

from typing import Any

from grader.web.replay import describe, reference_marks, replay_data
from reference.report import Step, TreeCase
from reference.treefile import parse_compact

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


def case(**replay: Any) -> TreeCase:
    """A public tree's case with the replay ``replay`` (None: without one)."""
    found = {"name": "t", "hidden": False, "verdict": "failed"}
    if replay:
        found["replay"] = {"student": [], "reference": [], "truncated": False, **replay}
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
