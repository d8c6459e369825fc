"""Feedback that tells the truth about the student's search: every value asked, every
sentence in the student's own terms (their depth, their values, the exact window words)."""

from __future__ import annotations

import dataclasses

from reference.feedback import TreeFeedback, Verdict, judge, verdict_legend
from reference.observed import Call, Observed, Return, Visit
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


# -- sentences in the student's own terms -------------------------------------------------


def with_depths(observed: Observed, shift: int) -> Observed:
    """``observed`` with every depth argument moved by ``shift``."""
    events = [
        dataclasses.replace(event, depth=event.depth + shift)
        if isinstance(event, Call) and event.depth is not None
        else event
        for event in observed.events
    ]
    return dataclasses.replace(observed, events=events)


DEPTH_ONE = "MAX[ MIN(4)[3 12 8] MIN(1)[2 4 6] ]"


def test_a_search_below_the_depth_limit_is_told_the_depth_it_counts_down() -> None:
    # Depth counts down from the limit, 1, as it should; the search just never stops at 0.
    past = simulate(parse_compact(DEPTH_ONE), Student("depth-limited-minimax", depth_limit=2))
    observed = with_depths(past, -1)

    feedback = judged(DEPTH_ONE, observed, "depth-limited-minimax", depth_limit=1)

    assert message(feedback) == (
        "At B (depth 0, where the search stops): B is scored by game.eval; "
        "your search searched below the depth limit, to B1."
    )
    assert feedback.node("B1").message == (
        "B1 was visited, but it lies below the depth limit: the search stops at B "
        "(depth 0) and scores it by game.eval."
    )


def test_the_sentence_on_a_missed_child_keeps_the_references_v_apart_from_the_students() -> None:
    # C's window is (3, +inf); C1 is worth 5, so C goes on. A MIN node that starts at
    # v = alpha has v = 3 <= alpha after C1 and stops: its v was never 5.
    text = "MAX[ MIN[3 12 8] MIN[5 4 1] ]"
    correct = simulate(parse_compact(text), Student(prune="never"))
    events = [event for event in correct.events if event.node not in ("C2", "C3")]
    events = [
        Return("C", event.function, 3) if isinstance(event, Return) and event.node == "C" else event
        for event in events
    ]
    observed = dataclasses.replace(correct, events=events)

    feedback = judged(text, observed)

    assert message(feedback) == (
        "At C (MIN, alpha = 3): after C1 returned 5, the reference's v = 5 is not <= "
        "alpha = 3, so C must go on to C2; your search did not (your C returned 3)."
    )


BETA_EDGE = "MAX[ MIN[ MAX[1 0] MAX[1 0] ] MIN[0] ]"
"""B2 is searched with alpha = -inf, beta = 1 and is worth 1: its value is at beta."""


def test_a_value_at_beta_is_not_said_to_be_inside_the_window() -> None:
    for on_equality in (True, False):
        student = Student(prune="eq" if on_equality else "strict")
        observed = simulate(parse_compact(BETA_EDGE), student)
        observed = dataclasses.replace(
            observed,
            events=[
                dataclasses.replace(event, value=5)
                if isinstance(event, Return) and event.node == "B2"
                else event
                for event in observed.events
            ],
        )

        feedback = judged(BETA_EDGE, observed, prune_on_equality=on_equality)

        assert feedback.node("B2").message == (
            "B2 returned 5 but its value is 1, at beta = 1 (the window is alpha = -inf, "
            "beta = 1), so it must return 1."
        )


def test_a_node_answered_from_the_students_own_cache_is_named_so() -> None:
    observed = simulate(parse_compact(FIG52), Student("minimax"))
    observed = dataclasses.replace(
        observed,
        events=[e for e in observed.events if not (isinstance(e, Visit) and e.node == "C2")],
    )

    feedback = judged(FIG52, observed, "minimax")

    assert feedback.node("C2").verdict is MISSED
    assert feedback.node("C2").message == (
        "C2 was answered from your own cache, without asking the game; the reference searches it."
    )
    assert message(feedback) == feedback.node("C2").message


def test_the_legend_of_a_depth_limited_exercise_speaks_of_the_depth_limit_not_of_pruning() -> None:
    depth_limited = verdict_legend(windowed=False, depth_limited=True)
    words = " ".join(depth_limited.values())
    assert "prune" not in words and "alpha" not in words and "beta" not in words
    assert depth_limited[Verdict.EXTRA] == "searched below the depth limit"
    assert depth_limited[Verdict.WRONG_BOUNDS] == "called with the wrong depth"

    alphabeta = verdict_legend(windowed=True, depth_limited=False)
    assert alphabeta[Verdict.EXTRA] == "visited, but the reference prunes it"
    assert "depth" not in " ".join(alphabeta.values())
    assert set(alphabeta) == set(Verdict)
