"""An instructor's grade for one student on one exercise, with a comment the student reads.

While an override stands it is the student's grade (:mod:`grader.services.grades` makes it
win) and what the LMS gets. Setting and clearing one each write an audit event and a
notice to the student, and make the deliveries that carry the new grade to the LMS; the
caller sends their ids after the commit (``queue().dispatch(session, DELIVER_TASK, ids)``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from grader.models import (
    Exercise,
    GradeOverride,
    GradingRun,
    Notice,
    RunState,
    Submission,
    User,
    utcnow,
)
from grader.models.submissions import SubmissionKind
from grader.services import audit, grade_sync
from grader.services.grades import student_grade

COMMENT_LIMIT = 2000
SET = "grade.override"
CLEARED = "grade.override_cleared"


class OverrideRefused(Exception):
    """Why an override cannot be set or cleared, in words for the instructor."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class Changed:
    """What setting or clearing did: the override (None once cleared) and the deliveries
    to send after the commit."""

    override: GradeOverride | None
    delivery_ids: list[int]


def max_score(session: Session, exercise: Exercise, user_id: int) -> float | None:
    """The most an override may give ``user_id`` on ``exercise``: their graded attempts'
    maximum, else that of any graded attempt on the exercise (None: nothing graded yet)."""
    grade = student_grade(session, exercise, user_id)
    found = [attempt.max_score for attempt in grade.graded if attempt.max_score is not None]
    if found:
        return found[-1]
    return session.scalar(
        select(func.max(GradingRun.max_score))
        .join(Submission, Submission.id == GradingRun.submission_id)
        .where(
            Submission.exercise_id == exercise.id,
            Submission.kind == SubmissionKind.ATTEMPT,
            GradingRun.state == RunState.GRADED,
            GradingRun.counted.is_(True),
        )
    )


def _comment(comment: str | None) -> str:
    text = (comment or "").strip()
    if not text:
        raise OverrideRefused("write a comment: the student reads it with the grade")
    if len(text) > COMMENT_LIMIT:
        raise OverrideRefused(f"the comment is too long (at most {COMMENT_LIMIT} characters)")
    return text


def _described(override: GradeOverride | None) -> dict[str, Any] | None:
    if override is None:
        return None
    return {"score": override.score, "max_score": override.max_score, "comment": override.comment}


def standing(session: Session, exercise_id: int, user_id: int) -> GradeOverride | None:
    """The override of ``user_id``'s grade on ``exercise_id`` that stands, if one does."""
    return session.scalar(
        select(GradeOverride).where(
            GradeOverride.exercise_id == exercise_id, GradeOverride.user_id == user_id
        )
    )


def set_override(
    session: Session,
    actor: User,
    exercise: Exercise,
    student: User,
    score: float | None,
    comment: str | None,
) -> Changed:
    """Set ``student``'s grade on ``exercise`` to ``score`` (0 to the exercise's maximum),
    with ``comment`` (required): replaces an override that stands."""
    text = _comment(comment)
    most = max_score(session, exercise, student.id)
    if most is None:
        raise OverrideRefused("no attempt on this exercise is graded yet: its maximum is unknown")
    if score is None or not math.isfinite(score) or not 0 <= score <= most:
        raise OverrideRefused(f"the score must be a number from 0 to {most:g}")
    override = standing(session, exercise.id, student.id)
    before = _described(override)
    if override is None:
        override = GradeOverride(exercise_id=exercise.id, user_id=student.id)
        session.add(override)
    override.score = float(score)
    override.max_score = most
    override.comment = text
    override.set_by_id = actor.id
    override.set_at = utcnow()
    session.flush()
    audit.record(
        session,
        actor,
        exercise.course_id,
        SET,
        exercise_id=exercise.id,
        subject_id=student.id,
        before=before,
        after=_described(override),
        comment=text,
    )
    _notify(
        session,
        exercise,
        student,
        f"Your instructor set your grade to {override.score:g} / {most:g}: {text}",
    )
    ids = grade_sync.grade_changed(session, exercise, [student.id], reason="override")
    return Changed(override, ids)


def clear_override(
    session: Session, actor: User, exercise: Exercise, student: User, comment: str | None
) -> Changed:
    """Remove ``student``'s override on ``exercise`` (their attempts' grade counts again),
    with ``comment`` (required)."""
    text = _comment(comment)
    override = standing(session, exercise.id, student.id)
    if override is None:
        raise OverrideRefused("this student's grade is not overridden")
    before = _described(override)
    session.delete(override)
    session.flush()
    audit.record(
        session,
        actor,
        exercise.course_id,
        CLEARED,
        exercise_id=exercise.id,
        subject_id=student.id,
        before=before,
        after=None,
        comment=text,
    )
    _notify(
        session,
        exercise,
        student,
        f"Your instructor removed the grade they had set (your attempts count again): {text}",
    )
    ids = grade_sync.grade_changed(session, exercise, [student.id], reason="override")
    return Changed(None, ids)


def _notify(session: Session, exercise: Exercise, student: User, message: str) -> None:
    session.add(
        Notice(user_id=student.id, exercise_id=exercise.id, kind="override", message=message)
    )
    session.flush()
