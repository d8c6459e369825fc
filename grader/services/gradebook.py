"""The grade book of an exercise: one line per student, from
:func:`grader.services.grades.student_grades` (through
:func:`grader.services.roster.exercise_rows`), with every figure an instructor exports:
attempts, the latest and best scores after the late policy, the grade (an override wins),
lateness, the override and its comment, the extension."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from grader.models import Exercise
from grader.services.roster import exercise_rows

COLUMNS = (
    "name",
    "email",
    "LMS identity",
    "attempts",
    "latest verdict",
    "latest score",
    "best score",
    "grade",
    "max score",
    "late",
    "days late",
    "penalty %",
    "override",
    "override comment",
    "extension due (UTC)",
    "latest submission (UTC)",
)


@dataclass(frozen=True, slots=True)
class GradeBookRow:
    """One student's line of the grade book (scores after the late policy)."""

    user_id: int
    name: str
    email: str
    identity: str
    """Their LMS identities, ``source: id`` joined by ``; `` (empty: none)."""
    attempts: int
    verdict: str | None
    """The latest graded attempt's."""
    latest_score: float | None
    best_score: float | None
    grade: float | None
    """The override's score while one stands, else the best score."""
    max_score: float | None
    late: bool
    days_late: int
    """The latest late attempt's started days after the due date (0: none late)."""
    penalty: float
    """That attempt's penalty, in percent."""
    overridden: bool
    override_comment: str
    extension_due: datetime | None
    last_submitted: datetime | None


def grade_book(session: Session, exercise: Exercise) -> list[GradeBookRow]:
    """One row per student of the course and per other submitter, by name."""
    rows = []
    for row in exercise_rows(session, exercise):
        grade = row.grade
        late = [attempt.lateness for attempt in grade.attempts if attempt.lateness.late]
        latest, best = grade.latest, grade.best
        rows.append(
            GradeBookRow(
                user_id=row.user.id,
                name=row.user.name,
                email=row.user.contact_email,
                identity="; ".join(str(identity) for identity in row.identities),
                attempts=len(grade.attempts),
                verdict=None if latest is None else latest.verdict,
                latest_score=None if latest is None else latest.score,
                best_score=None if best is None else best.score,
                grade=grade.score,
                max_score=grade.max_score,
                late=bool(late),
                days_late=late[-1].days if late else 0,
                penalty=late[-1].penalty if late else 0.0,
                overridden=grade.override is not None,
                override_comment="" if grade.override is None else grade.override.comment,
                extension_due=grade.deadline.due_at if grade.deadline.extended else None,
                last_submitted=grade.last_activity,
            )
        )
    return rows
