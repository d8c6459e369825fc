"""What makes a score, as the report tells it: a public tree's parts (value, decision,
node verdicts) and the public and hidden trees' shares of the total."""

from __future__ import annotations

from reference.exercises.model import Scoring
from reference.feedback import TreeFeedback
from reference.feedback.scoring import ExerciseScore, Part, tree_parts
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


def total_parts(total: ExerciseScore) -> TotalParts | None:
    """What makes the total: the public and the hidden trees' shares (a share of the
    score has the report's fields, by the same names)."""
    if total.public is None or total.hidden is None:
        return None
    return TotalParts(
        public=ShareScore.model_validate(total.public, from_attributes=True),
        hidden=ShareScore.model_validate(total.hidden, from_attributes=True),
    )
