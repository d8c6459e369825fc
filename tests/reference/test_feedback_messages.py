"""Feedback that tells the truth about the student's search: every value asked, every
sentence in the student's own terms (their depth, their values, the exact window words)."""

from __future__ import annotations

import dataclasses

from reference.feedback import TreeFeedback, Verdict, judge
from reference.observed import Observed, Visit
from reference.search import SearchOptions, search
from reference.treefile import parse_compact
from tests.reference.test_feedback_simulator import FIG52, Student, simulate

MISSED = Verdict.MISSED


def without_values(observed: Observed) -> Observed:
    """``observed`` with every ``utility`` and ``eval`` request taken out: a search that
    never asks what a node is worth."""
    events = [
        event
        for event in observed.events
        if not (isinstance(event, Visit) and event.method in ("utility", "eval"))
    ]
    return dataclasses.replace(observed, events=events)


def judged(
    text: str, observed: Observed, algorithm: str = "alphabeta", **options: object
) -> TreeFeedback:
    tree = parse_compact(text)
    reference = search(tree, algorithm, SearchOptions(**options))  # type: ignore[arg-type]
    return judge(tree, reference, observed)


def message(feedback: TreeFeedback) -> str:
    assert feedback.first_divergence is not None
    return feedback.first_divergence.message


# -- every value the reference asks, the student's search asks ----------------------------


def test_a_decision_search_that_never_asks_a_utility_misses_every_leaf() -> None:
    # Every value -inf, the first action wins the tie: a1, the right move on Figure 5.2.
    observed = without_values(simulate(parse_compact(FIG52), Student(decision_style=True)))
    assert observed.decision == "a1"

    feedback = judged(FIG52, observed)

    leaves = ["B1", "B2", "B3", "C1", "D1", "D2", "D3"]
    assert [name for name, v in feedback.verdicts().items() if v is MISSED] == leaves
    assert feedback.node("B2").message == (
        "B2 was visited, but its value was never asked: the reference asks game.utility there."
    )
    assert message(feedback) == feedback.node("B1").message
    assert not feedback.perfect
    assert feedback.score < 60


def test_an_entry_point_search_that_never_asks_a_utility_misses_the_leaves() -> None:
    observed = without_values(simulate(parse_compact(FIG52), Student("minimax")))

    feedback = judged(FIG52, observed, "minimax")

    assert feedback.node("C3").verdict is MISSED
    assert "its value was never asked" in feedback.node("C3").message


def test_a_cut_off_state_whose_evaluation_is_never_asked_is_missed() -> None:
    text = "MAX[ MIN(4)[3 12 8] MIN(1)[2 4 6] ]"
    student = Student("depth-limited-minimax", depth_limit=1)
    observed = without_values(simulate(parse_compact(text), student))

    feedback = judged(text, observed, "depth-limited-minimax", depth_limit=1)

    assert feedback.node("B").verdict is MISSED
    assert feedback.node("B").message == (
        "B was visited, but its value was never asked: the reference asks game.eval there "
        "(the depth limit)."
    )


def test_a_search_that_asks_every_value_is_still_perfect() -> None:
    feedback = judged(FIG52, simulate(parse_compact(FIG52), Student(decision_style=True)))
    assert feedback.perfect and feedback.score == 100
