"""A student's grade on an exercise: each attempt's score after the late policy, the best
and latest of them, and an instructor's override, which wins while it stands.

The one place that says what a due date, an extension, a late policy or an override does to
a score: the roster, the grade book, the student's pages and what the LMS gets (callbacks,
LTI scores) all read :func:`student_grades`.

Lateness is worked out when it is read, from when the attempt was made and the due date in
force now (the exercise's, or the student's extension): moving a due date or granting an
extension changes it for attempts already made.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from grader.models import (
    Exercise,
    Extension,
    GradeOverride,
    GradingRun,
    LatePolicy,
    Submission,
)
from grader.models.base import aware
from grader.models.submissions import SubmissionKind
from grader.services.latest_runs import counting
from reference.report import RunVerdict

DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Deadline:
    """The dates and late policy in force for one student on one exercise."""

    opens_at: datetime | None
    due_at: datetime | None
    """The student's due date: their extension's, else the exercise's (None: none)."""
    policy: LatePolicy
    penalty_per_day: float
    """Percent per started day late."""
    penalty_cap: float
    """Percent, at most."""
    extended: bool = False
    """``due_at`` is the student's extension."""
    course_due_at: datetime | None = None
    """The exercise's own due date (the same as ``due_at`` without an extension)."""

    def lateness(self, submitted_at: datetime) -> Lateness:
        """How late an attempt made at ``submitted_at`` is, and what that costs."""
        if self.due_at is None:
            return ON_TIME
        over = aware(submitted_at) - aware(self.due_at)
        if over <= timedelta(0):
            return ON_TIME
        days = math.ceil(over / DAY)
        penalty = 0.0
        if self.policy == LatePolicy.PENALTY:
            penalty = min(self.penalty_cap, self.penalty_per_day * days)
        return Lateness(True, days, max(0.0, min(100.0, penalty)))

    def refuses(self, moment: datetime) -> str | None:
        """Why an attempt at ``moment`` is refused (not open yet, past a refusing due
        date), or None."""
        if self.opens_at is not None and aware(moment) < aware(self.opens_at):
            return f"this exercise opens at {aware(self.opens_at):%Y-%m-%d %H:%M} UTC"
        if (
            self.policy == LatePolicy.REFUSE
            and self.due_at is not None
            and aware(moment) > aware(self.due_at)
        ):
            return (
                f"this exercise was due at {aware(self.due_at):%Y-%m-%d %H:%M} UTC and takes "
                "no late submissions"
            )
        return None


@dataclass(frozen=True, slots=True)
class Lateness:
    late: bool
    days: int
    """Started days after the due date (0: on time)."""
    penalty: float
    """Percent of the score taken."""

    def apply(self, score: float | None) -> float | None:
        if score is None:
            return None
        return round(score * (1 - self.penalty / 100), 6)


ON_TIME = Lateness(False, 0, 0.0)


def deadline(exercise: Exercise, extension: Extension | None = None) -> Deadline:
    """The deadline of ``exercise`` for a student with ``extension`` (or none).

    An extension only ever gives time: it is in force while it is later than the
    exercise's due date (a due date moved past it makes it moot, never shortens the
    student's time), and an exercise without a due date has nothing to extend."""
    course_due = exercise.due_at
    extended = (
        extension is not None
        and course_due is not None
        and aware(extension.due_at) > aware(course_due)
    )
    return Deadline(
        opens_at=exercise.opens_at,
        due_at=extension.due_at if extended and extension is not None else course_due,
        policy=LatePolicy(exercise.late_policy or LatePolicy.NONE),
        penalty_per_day=exercise.late_penalty_per_day or 0.0,
        penalty_cap=100.0 if exercise.late_penalty_cap is None else exercise.late_penalty_cap,
        extended=extended,
        course_due_at=course_due,
    )


def deadline_for(session: Session, exercise: Exercise, user_id: int) -> Deadline:
    """The deadline of ``exercise`` for ``user_id``, their extension included."""
    extension = session.scalar(
        select(Extension).where(Extension.exercise_id == exercise.id, Extension.user_id == user_id)
    )
    return deadline(exercise, extension)


@dataclass(frozen=True, slots=True)
class AttemptScore:
    """One graded attempt: its own score and what the late policy makes of it."""

    submission_id: int
    attempt: int
    submitted_at: datetime
    verdict: str | None
    raw_score: float | None
    """The grader's score, before the late policy."""
    max_score: float | None
    lateness: Lateness
    graded: bool
    """A counted run graded it (False: waiting, or failed through our fault)."""

    @property
    def score(self) -> float | None:
        """The score after the late policy."""
        return self.lateness.apply(self.raw_score)


@dataclass(slots=True)
class StudentGrade:
    """One student's standing on an exercise."""

    user_id: int
    deadline: Deadline
    attempts: list[AttemptScore] = field(default_factory=list)
    """Every attempt, oldest first (graded or not)."""
    override: GradeOverride | None = None

    @property
    def graded(self) -> list[AttemptScore]:
        return [attempt for attempt in self.attempts if attempt.graded]

    @property
    def latest(self) -> AttemptScore | None:
        """The newest graded attempt."""
        graded = self.graded
        return graded[-1] if graded else None

    @property
    def best(self) -> AttemptScore | None:
        """The graded attempt with the highest score after the late policy (the earliest of
        equals)."""
        best: AttemptScore | None = None
        for attempt in self.graded:
            if attempt.score is None:
                continue
            if best is None or best.score is None or attempt.score > best.score:
                best = attempt
        return best

    @property
    def score(self) -> float | None:
        """The grade: the override's score while one stands, else the best attempt's."""
        if self.override is not None:
            return self.override.score
        return None if self.best is None else self.best.score

    @property
    def max_score(self) -> float | None:
        if self.override is not None:
            return self.override.max_score
        best = self.best or self.latest
        return None if best is None else best.max_score

    @property
    def late(self) -> bool:
        """Some attempt was late."""
        return any(attempt.lateness.late for attempt in self.attempts)

    @property
    def last_activity(self) -> datetime | None:
        return self.attempts[-1].submitted_at if self.attempts else None


def student_grades(
    session: Session,
    exercise: Exercise,
    user_ids: Iterable[int] | None = None,
    *,
    regrade_id: int | None = None,
) -> dict[int, StudentGrade]:
    """Each student's :class:`StudentGrade` on ``exercise`` (those of ``user_ids``, or every
    student with an attempt, an extension or an override), in three statements.

    With ``regrade_id``, the grades that regrade's preview would give once confirmed: its
    uncounted runs count as well (a graded one is its submission's newest)."""
    found = _grades(session, [exercise], user_ids, regrade_id)
    return {user_id: grade for (_, user_id), grade in found.items()}


def student_grade(session: Session, exercise: Exercise, user_id: int) -> StudentGrade:
    """``user_id``'s :class:`StudentGrade` on ``exercise``."""
    return student_grades(session, exercise, [user_id])[user_id]


def grades_of_student(
    session: Session, exercises: Iterable[Exercise], user_id: int
) -> dict[int, StudentGrade]:
    """``user_id``'s :class:`StudentGrade` on each of ``exercises``, by exercise id, in three
    statements however many exercises there are (a student's standings on their pages)."""
    listed = list(exercises)
    if not listed:
        return {}
    found = _grades(session, listed, [user_id], None)
    return {exercise_id: grade for (exercise_id, _), grade in found.items()}


def _grades(
    session: Session,
    exercises: list[Exercise],
    user_ids: Iterable[int] | None,
    regrade_id: int | None,
) -> dict[tuple[int, int], StudentGrade]:
    """The grades of ``user_ids`` (None: every student with an attempt, an extension or an
    override) on ``exercises``, by (exercise id, user id), in three statements."""
    by_id = {exercise.id: exercise for exercise in exercises}
    wanted = None if user_ids is None else set(user_ids)
    counted: ColumnElement[bool] = GradingRun.counted.is_(True)
    if regrade_id is not None:
        counted = counted | (GradingRun.regrade_id == regrade_id)
    # Each attempt with all its runs, those that count first and the newest first: the
    # first is its result when it counts (see grader.services.latest_runs: a subquery of
    # the highest ids, or a condition on the runs, plans quadratic in the class without
    # statistics).
    counts = counting(counted & (GradingRun.verdict != RunVerdict.INTERNAL_ERROR))
    runs = (
        select(
            Submission.exercise_id,
            Submission.user_id,
            Submission.id,
            Submission.attempt,
            Submission.created_at,
            GradingRun.verdict,
            GradingRun.score,
            GradingRun.max_score,
            counts.label("counts"),
            func.row_number()
            .over(partition_by=Submission.id, order_by=(counts.desc(), GradingRun.id.desc()))
            .label("newest"),
        )
        .select_from(Submission)
        .outerjoin(GradingRun, GradingRun.submission_id == Submission.id)
        .where(Submission.exercise_id.in_(by_id), Submission.kind == SubmissionKind.ATTEMPT)
    )
    if wanted is not None:
        runs = runs.where(Submission.user_id.in_(wanted))
    attempts = runs.subquery("attempts")
    rows = (
        select(*(column for column in attempts.c if column.name != "newest"))
        .where(attempts.c.newest == 1)
        .order_by(attempts.c.exercise_id, attempts.c.user_id, attempts.c.attempt, attempts.c.id)
    )
    extensions_query = select(Extension).where(Extension.exercise_id.in_(by_id))
    overrides_query = select(GradeOverride).where(GradeOverride.exercise_id.in_(by_id))
    if wanted is not None:
        extensions_query = extensions_query.where(Extension.user_id.in_(wanted))
        overrides_query = overrides_query.where(GradeOverride.user_id.in_(wanted))
    extensions = {(row.exercise_id, row.user_id): row for row in session.scalars(extensions_query)}
    overrides = {(row.exercise_id, row.user_id): row for row in session.scalars(overrides_query)}
    grades: dict[tuple[int, int], StudentGrade] = {}

    def grade_of(key: tuple[int, int]) -> StudentGrade:
        if key not in grades:
            grades[key] = StudentGrade(
                key[1], deadline(by_id[key[0]], extensions.get(key)), [], overrides.get(key)
            )
        return grades[key]

    for (
        exercise_id,
        user_id,
        submission_id,
        attempt,
        created_at,
        verdict,
        score,
        max_score,
        counts,
    ) in session.execute(rows).all():
        grade = grade_of((exercise_id, user_id))
        graded = counts == 1  # else: no run, or none that counts (its figures are not read)
        grade.attempts.append(
            AttemptScore(
                submission_id=submission_id,
                attempt=attempt,
                submitted_at=aware(created_at),
                verdict=verdict if graded else None,
                raw_score=score if graded else None,
                max_score=max_score if graded else None,
                lateness=grade.deadline.lateness(created_at),
                graded=graded,
            )
        )
    for key in [*extensions, *overrides]:
        grade_of(key)
    for exercise_id in by_id:
        for user_id in wanted or ():
            grade_of((exercise_id, user_id))
    return grades


def grade_json(grade: StudentGrade, attempt: AttemptScore | None = None) -> dict[str, Any]:
    """The student's grade as the LMS gets it (callbacks, documented in the README):
    ``score`` is the grade (the override's, else the best attempt's after the late policy),
    and ``attempt``, when given, is what the policy made of that attempt's own score."""
    best = grade.best
    document: dict[str, Any] = {
        "score": grade.score,
        "max_score": grade.max_score,
        "overridden": grade.override is not None,
        "comment": None if grade.override is None else grade.override.comment,
        "due_at": None if grade.deadline.due_at is None else _iso(grade.deadline.due_at),
        "extended": grade.deadline.extended,
        "best_attempt": None if best is None else best.attempt,
    }
    if attempt is not None:
        document["attempt"] = {
            "attempt": attempt.attempt,
            "raw_score": attempt.raw_score,
            "score": attempt.score,
            "late": attempt.lateness.late,
            "days_late": attempt.lateness.days,
            "penalty_percent": attempt.lateness.penalty,
        }
    return document


def _iso(moment: datetime) -> str:
    return aware(moment).isoformat().replace("+00:00", "Z")
