"""What makes a score: each public tree's parts (value, decision, node verdicts) add up to
its score, and the public and hidden shares add up to the total, for every implementation
of the library on one exercise."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from reference.exercises import load_catalog
from reference.exercises.model import Scoring
from reference.feedback import GOOD_VERDICTS
from reference.feedback.scoring import tree_parts, tree_score
from reference.feedback.verdicts import NodeFeedback, TreeFeedback, Verdict
from reference.hidden import DEVELOPMENT_KEY, LIBRARY_FOLDER, Implementation, load_library
from reference.report import Report
from worker.grading import grade

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
CATALOG = load_catalog(EXERCISES)
LIBRARY = load_library(EXERCISES / LIBRARY_FOLDER)
SLUG = "aima-fig5.2-alphabeta"
IMPLEMENTATIONS = [
    pytest.param(implementation, id=implementation.name)
    for implementation in LIBRARY
    if implementation.applies_to(CATALOG.get(SLUG))
]


def graded(implementation: Implementation) -> Report:
    report = grade(
        CATALOG.get(SLUG),
        implementation.source,
        implementation.path.name,
        key=DEVELOPMENT_KEY,
        exercises_dir=EXERCISES,
    )
    # What the service stores and the page reads is the JSON document.
    return Report.from_json(report.to_json())


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_the_parts_add_up_to_each_score(implementation: Implementation) -> None:
    report = graded(implementation)
    scoring = CATALOG.get(SLUG).scoring
    for case in report.cases:
        if case.hidden or case.score is None:
            assert case.score_parts is None
            continue
        parts = case.score_parts
        assert parts is not None, case.name
        answered = [part for part in (parts.value, parts.decision) if part is not None]
        earned = sum(part.earned for part in [*answered, parts.verdicts])
        possible = sum(part.possible for part in [*answered, parts.verdicts])
        assert earned == pytest.approx(case.score, abs=1e-9)
        assert possible == pytest.approx(case.max_score, abs=1e-9)
        counts = case.verdict_counts()
        assert parts.counted == counts.total()
        assert parts.good == sum(counts[str(verdict)] for verdict in GOOD_VERDICTS)
        # Each part on its own: all or nothing for the answer, the nodes by their share.
        if parts.value is not None:
            assert case.value is not None
            assert (parts.value.earned == parts.value.possible) == (
                case.value.actual == case.value.expected
            )
        if parts.decision is not None:
            assert case.decision is not None
            assert (parts.decision.earned == parts.decision.possible) == (
                case.decision.actual == case.decision.expected
            )
        share = parts.verdicts.possible * parts.good / parts.counted
        assert parts.verdicts.earned == pytest.approx(share, abs=0.011)
        weights = [part.weight for part in [*answered, parts.verdicts]]
        assert set(weights) <= {scoring.value, scoring.decision, scoring.nodes}
    total = report.score_parts
    assert total is not None and report.score is not None
    assert total.public.points + total.hidden.points == pytest.approx(report.score, abs=1e-9)
    assert total.public.weight + total.hidden.weight == pytest.approx(1)
    public = [case for case in report.cases if not case.hidden]
    hidden = [case for case in report.cases if case.hidden]
    assert (total.public.trees, total.hidden.trees) == (len(public), len(hidden))
    assert total.hidden.passed == sum(case.verdict == "passed" for case in hidden)
    # The weights times the means make the total, to the rounding of the means.
    made = total.public.weight * total.public.mean + total.hidden.weight * total.hidden.mean
    assert made == pytest.approx(report.score, abs=0.01)


def feedback(
    verdicts: list[Verdict], value_ok: bool | None, decision_ok: bool | None
) -> TreeFeedback:
    nodes = tuple(
        NodeFeedback(f"N{i}", verdict, None, None, "") for i, verdict in enumerate(verdicts)
    )
    share = Fraction(sum(v in GOOD_VERDICTS for v in verdicts), len(verdicts))
    score = tree_score(Scoring(), value_ok=value_ok, decision_ok=decision_ok, share=share)
    return TreeFeedback(nodes, 3, 3, value_ok, "a1", None, decision_ok, None, score, 100)


@pytest.mark.parametrize(("value_ok", "decision_ok"), [(True, None), (None, True), (False, False)])
def test_a_part_not_observed_is_left_out_and_the_others_scaled(
    value_ok: bool | None, decision_ok: bool | None
) -> None:
    verdicts = [Verdict.OK] * 9 + [Verdict.EXTRA] * 2 + [Verdict.PRUNED] * 2
    made = feedback(verdicts, value_ok, decision_ok)
    parts = tree_parts(made)
    assert (parts.value is None, parts.decision is None) == (value_ok is None, decision_ok is None)
    answered = [part for part in (parts.value, parts.decision) if part is not None]
    assert sum(part.earned for part in [*answered, parts.nodes]) == pytest.approx(made.score)
    assert sum(part.possible for part in [*answered, parts.nodes]) == pytest.approx(100)
    assert (parts.good, parts.counted) == (11, 13)
