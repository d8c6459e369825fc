"""What makes a score, as the report tells it: a public tree's parts (value, decision,
node verdicts) and the public and hidden trees' shares of the total."""

from __future__ import annotations

from collections.abc import Mapping

from reference.exercises.model import Scoring
from reference.feedback import TreeFeedback
from reference.feedback.reasons import Reason
from reference.feedback.scoring import ExerciseScore, Part, hidden_credit, hundredths, tree_parts
from reference.report import PartScore, ScoreParts, ShareScore, TotalParts


def _part(part: Part | None) -> PartScore | None:
    return (
        None
        if part is None
        else PartScore(earned=part.earned, possible=part.possible, weight=part.weight)
    )


def score_parts(feedback: TreeFeedback, scoring: Scoring | None = None) -> ScoreParts:
    """What makes a public tree's score (see :func:`reference.feedback.scoring.tree_parts`)."""
    parts = tree_parts(feedback, scoring)
    verdicts = _part(parts.nodes)
    assert verdicts is not None
    return ScoreParts(
        value=_part(parts.value),
        decision=_part(parts.decision),
        verdicts=verdicts,
        good=parts.good,
        counted=parts.counted,
    )


def hidden_credits(scoring: Scoring, words: Mapping[Reason, str]) -> dict[str, float] | None:
    """The points a failed hidden tree earns by each reason it may give (``words``: see
    :func:`reference.reporting.cases.reason_words`), in its words; None under ``whole``
    credit, where it earns nothing."""
    if scoring.hidden_credit == "whole":
        return None
    return {word: hundredths(hidden_credit(reason, scoring)) for reason, word in words.items()}


def total_parts(total: ExerciseScore, credits: dict[str, float] | None = None) -> TotalParts | None:
    """What makes the total: the public and the hidden trees' shares (a share of the
    score has the report's fields, by the same names) and, with hidden trees, the
    ``credits`` a failed one earns by its reason (see :func:`hidden_credits`)."""
    if total.public is None or total.hidden is None:
        return None
    return TotalParts(
        public=ShareScore.model_validate(total.public, from_attributes=True),
        hidden=ShareScore.model_validate(total.hidden, from_attributes=True),
        hidden_credit=credits if total.hidden.trees else None,
    )
