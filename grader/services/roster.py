"""Who is in a course and how they stand: the roster (each student with their LMS identity,
last activity and exercises attempted), and each exercise's students with their grades
(:func:`grader.services.grades.student_grades`), which the students page and the grade
book (CSV) both show."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from sqlalchemy import distinct, func, select
from sqlalchemy.orm import Session

from grader.models import (
    Course,
    Exercise,
    ExternalIdentity,
    LtiLaunch,
    Membership,
    Role,
    Submission,
    User,
)
from grader.models.base import aware
from grader.models.submissions import SubmissionKind
from grader.services.grades import StudentGrade, student_grades
from reference.report import RunVerdict


@dataclass(frozen=True, slots=True)
class Identity:
    """How an LMS knows a student: ``integration:3`` / ``s-1``, or an LTI issuer and the
    subject (``sub``) its launches named."""

    source: str
    external_id: str

    def __str__(self) -> str:
        return f"{self.source}: {self.external_id}"


def identities(session: Session, user_ids: Iterable[int]) -> dict[int, list[Identity]]:
    """Each user's LMS identities: their :class:`ExternalIdentity` rows, then the LTI
    subjects of their launches that no such row names already."""
    wanted = set(user_ids)
    found: dict[int, list[Identity]] = {user_id: [] for user_id in wanted}
    if not wanted:
        return found
    for row in session.scalars(
        select(ExternalIdentity)
        .where(ExternalIdentity.user_id.in_(wanted))
        .order_by(ExternalIdentity.source, ExternalIdentity.id)
    ):
        found[row.user_id].append(Identity(row.source, row.external_id))
    for user_id, subject in session.execute(
        select(LtiLaunch.user_id, LtiLaunch.subject)
        .distinct()
        .where(LtiLaunch.user_id.in_(wanted))
        .order_by(LtiLaunch.user_id, LtiLaunch.subject)
    ):
        if subject not in {identity.external_id for identity in found[user_id]}:
            found[user_id].append(Identity("LTI subject", subject))
    return found


# The roster.


@dataclass(frozen=True, slots=True)
class RosterRow:
    """One student of a course."""

    user: User
    identities: list[Identity]
    last_activity: datetime | None
    """Their latest attempt on any of the course's exercises (None: none)."""
    exercises_attempted: int


def roster(session: Session, course: Course) -> list[RosterRow]:
    """The students of ``course`` by name, in five statements."""
    students = session.scalars(
        select(User)
        .join(Membership, Membership.user_id == User.id)
        .where(Membership.course_id == course.id, Membership.role == Role.STUDENT)
        .order_by(User.name, User.id)
    ).all()
    ids = [user.id for user in students]
    # The course's exercises first, then their attempts through the index of each
    # exercise's: not joined in one statement, which PostgreSQL without statistics planned
    # as a rescan of the course's exercises for every attempt.
    exercises = session.scalars(select(Exercise.id).where(Exercise.course_id == course.id))
    activity = {
        user_id: (last, attempted)
        for user_id, last, attempted in session.execute(
            select(
                Submission.user_id,
                func.max(Submission.created_at),
                func.count(distinct(Submission.exercise_id)),
            )
            .where(
                Submission.exercise_id.in_(exercises.all()),
                Submission.kind == SubmissionKind.ATTEMPT,
            )
            .group_by(Submission.user_id)
        )
    }
    known = identities(session, ids)
    rows = []
    for user in students:
        last, attempted = activity.get(user.id, (None, 0))
        rows.append(
            RosterRow(user, known[user.id], None if last is None else aware(last), attempted)
        )
    return rows


# An exercise's students.


class Filter(StrEnum):
    """Which students of an exercise a page lists."""

    ALL = "all"
    NOT_SUBMITTED = "not-submitted"
    """No attempt at all."""
    FAILED = "failed"
    """Their latest graded attempt did not pass, or its own score (before the late
    policy) is under the maximum: it is about their code, so neither a late penalty nor
    an override changes it."""
    LATE = "late"
    """Some attempt came after their due date."""


@dataclass(slots=True)
class ExerciseRow:
    """One student on one exercise: who, and their :class:`StudentGrade`."""

    user: User
    grade: StudentGrade
    enrolled: bool
    """A student of the course (False: someone else who submitted, an instructor trying)."""
    identities: list[Identity] = field(default_factory=list)

    @property
    def attempts(self) -> int:
        return len(self.grade.attempts)

    @property
    def failed(self) -> bool:
        latest = self.grade.latest
        if latest is None:
            return False
        if latest.verdict != RunVerdict.PASSED:
            return True
        return (
            latest.raw_score is not None
            and latest.max_score is not None
            and latest.raw_score < latest.max_score
        )

    def shown(self, which: Filter) -> bool:
        if which == Filter.NOT_SUBMITTED:
            return not self.grade.attempts
        if which == Filter.FAILED:
            return self.failed
        if which == Filter.LATE:
            return self.grade.late
        return True


SORTS = {
    "name": lambda row: (row.user.name.lower(), row.user.id),
    "best": lambda row: (_none_last(row.grade.best and row.grade.best.score), row.user.id),
    "latest": lambda row: (_none_last(row.grade.latest and row.grade.latest.score), row.user.id),
    "grade": lambda row: (_none_last(row.grade.score), row.user.id),
    "attempts": lambda row: (-row.attempts, row.user.id),
    "activity": lambda row: (
        -(row.grade.last_activity.timestamp()) if row.grade.last_activity else 0.0,
        row.user.id,
    ),
}
"""The orders of the students page, by column: names A to Z, scores and attempts from the
highest, activity from the newest (none last)."""


def _none_last(value: float | None) -> tuple[int, float]:
    return (1, 0.0) if value is None else (0, -value)


def exercise_rows(
    session: Session, exercise: Exercise, which: Filter = Filter.ALL, sort: str = "name"
) -> list[ExerciseRow]:
    """The course's students and anyone else with an attempt on ``exercise``, with their
    grades (``which`` of them, ordered by ``sort``, one of :data:`SORTS`)."""
    grades = student_grades(session, exercise)
    enrolled = set(
        session.scalars(
            select(Membership.user_id).where(
                Membership.course_id == exercise.course_id, Membership.role == Role.STUDENT
            )
        )
    )
    missing = enrolled - set(grades)
    if missing:
        grades.update(student_grades(session, exercise, missing))
    users = session.scalars(select(User).where(User.id.in_(list(grades)))).all()
    known = identities(session, [user.id for user in users])
    rows = [
        ExerciseRow(user, grades[user.id], user.id in enrolled, known[user.id])
        for user in users
        if user.id in enrolled or grades[user.id].attempts
    ]
    rows = [row for row in rows if row.shown(which)]
    return sorted(rows, key=SORTS.get(sort, SORTS["name"]))
