"""A student's grade: lateness by started day, the penalty's cap, extensions, refusals, the
best attempt after the policy, and an override that wins while it stands."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.models import (
    Course,
    Exercise,
    Extension,
    GradeOverride,
    GradingRun,
    LatePolicy,
    RunState,
    User,
)
from grader.services.grades import Deadline, deadline, student_grade, student_grades
from grader.services.submissions import SubmissionRefused, submit
from tests.grader.conftest import UserFactory

DUE = datetime(2026, 12, 5, 23, 59, tzinfo=UTC)


def penalty_deadline(per_day: float = 10.0, cap: float = 50.0) -> Deadline:
    return Deadline(None, DUE, LatePolicy.PENALTY, per_day, cap)


@pytest.mark.parametrize(
    ("after", "days", "penalty"),
    [
        (timedelta(0), 0, 0.0),
        (timedelta(seconds=-1), 0, 0.0),
        (timedelta(seconds=1), 1, 10.0),
        (timedelta(hours=24), 1, 10.0),
        (timedelta(hours=25), 2, 20.0),
        (timedelta(days=4, seconds=1), 5, 50.0),
        (timedelta(days=30), 30, 50.0),
    ],
)
def test_lateness_counts_started_days_and_the_penalty_stops_at_its_cap(
    after: timedelta, days: int, penalty: float
) -> None:
    lateness = penalty_deadline().lateness(DUE + after)
    assert (lateness.late, lateness.days, lateness.penalty) == (days > 0, days, penalty)


def test_a_late_attempt_under_the_none_policy_is_flagged_but_keeps_its_score() -> None:
    lateness = Deadline(None, DUE, LatePolicy.NONE, 10.0, 50.0).lateness(DUE + timedelta(days=3))
    assert lateness.late and lateness.days == 3
    assert lateness.apply(8.0) == 8.0


def test_the_penalty_is_a_share_of_the_score() -> None:
    assert penalty_deadline().lateness(DUE + timedelta(hours=30)).apply(7.0) == pytest.approx(5.6)
    assert penalty_deadline(cap=0).lateness(DUE + timedelta(days=9)).apply(7.0) == 7.0
    assert penalty_deadline().lateness(DUE).apply(None) is None


def test_without_a_due_date_nothing_is_late() -> None:
    lateness = Deadline(None, None, LatePolicy.PENALTY, 10, 50).lateness(DUE + timedelta(days=9))
    assert not lateness.late and lateness.penalty == 0


def test_refusals_before_the_opening_and_after_a_refusing_due_date() -> None:
    opens = DUE - timedelta(days=7)
    refusing = Deadline(opens, DUE, LatePolicy.REFUSE, 0, 0)
    assert "opens at 2026-11-28" in (refusing.refuses(opens - timedelta(seconds=1)) or "")
    assert refusing.refuses(opens) is None
    assert refusing.refuses(DUE) is None
    assert "no late submissions" in (refusing.refuses(DUE + timedelta(seconds=1)) or "")
    assert penalty_deadline().refuses(DUE + timedelta(days=5)) is None


def test_an_extension_replaces_the_due_date_for_its_student_only() -> None:
    exercise = Exercise(due_at=DUE, late_policy=LatePolicy.PENALTY, late_penalty_per_day=10.0)
    extension = Extension(due_at=DUE + timedelta(days=3))
    moment = DUE + timedelta(days=2)
    assert deadline(exercise).lateness(moment).penalty == 20.0
    extended = deadline(exercise, extension)
    assert extended.extended and extended.course_due_at == DUE
    assert not extended.lateness(moment).late


def _exercise(session: Session, course: Course) -> Exercise:
    return session.scalars(
        select(Exercise).where(
            Exercise.course_id == course.id, Exercise.slug == "aima-fig5.2-alphabeta"
        )
    ).one()


def _graded_attempt(
    database: Database,
    settings: Settings,
    course: Course,
    user_id: int,
    at: datetime,
    score: float,
) -> int:
    """An attempt made at ``at`` whose run graded it ``score`` out of 10."""
    with database.session() as session:
        exercise = _exercise(session, course)
        user = session.get(User, user_id)
        assert user is not None
        submission = submit(session, settings, user, exercise, "s.py", "pass\n", now=at)
        run = submission.runs[0]
        run.state = RunState.GRADED
        run.verdict = "passed" if score == 10 else "failed"
        run.score, run.max_score = score, 10.0
        return submission.id


def test_the_grade_is_the_best_attempt_after_the_policy_until_an_override(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    student = make_user(course=course)
    other = make_user(course=course)
    with database.session() as session:
        exercise = _exercise(session, course)
        exercise.due_at = DUE
        exercise.late_policy = LatePolicy.PENALTY
        exercise.late_penalty_per_day = 25.0
        exercise.late_penalty_cap = 50.0
    _graded_attempt(database, settings, course, student.id, DUE - timedelta(days=1), 6.0)
    _graded_attempt(database, settings, course, student.id, DUE + timedelta(hours=2), 10.0)
    _graded_attempt(database, settings, course, other.id, DUE - timedelta(hours=1), 9.0)
    with database.session() as session:
        exercise = _exercise(session, course)
        grade = student_grade(session, exercise, student.id)
        assert [attempt.score for attempt in grade.attempts] == [6.0, 7.5]
        assert grade.best is not None and grade.best.attempt == 2
        assert grade.latest is grade.attempts[-1] and grade.late
        assert (grade.score, grade.max_score) == (7.5, 10.0)
        everyone = student_grades(session, exercise)
        assert everyone[other.id].score == 9.0 and not everyone[other.id].late
        session.add(
            Extension(exercise_id=exercise.id, user_id=student.id, due_at=DUE + timedelta(days=1))
        )
        session.flush()
        assert student_grade(session, exercise, student.id).score == 10.0
        session.add(
            GradeOverride(
                exercise_id=exercise.id,
                user_id=student.id,
                score=4.0,
                max_score=10.0,
                comment="copied from a classmate",
            )
        )
        session.flush()
        overridden = student_grade(session, exercise, student.id)
        assert overridden.score == 4.0 and overridden.override is not None
        assert student_grade(session, exercise, other.id).override is None


def test_runs_that_do_not_count_are_no_attempts_score(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    student = make_user(course=course)
    submission_id = _graded_attempt(
        database, settings, course, student.id, DUE - timedelta(days=1), 6.0
    )
    with database.session() as session:
        exercise = _exercise(session, course)
        session.add(
            GradingRun(
                submission_id=submission_id,
                exercise_version_id=exercise.current_version_id,
                state=RunState.GRADED,
                verdict="passed",
                score=10.0,
                max_score=10.0,
                counted=False,
            )
        )
        session.flush()
        assert student_grade(session, exercise, student.id).score == 6.0


def test_a_refusing_due_date_refuses_the_submission_in_words(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    student = make_user(course=course)
    with database.session() as session:
        exercise = _exercise(session, course)
        exercise.due_at = DUE
        exercise.late_policy = LatePolicy.REFUSE
    late = DUE + timedelta(days=1)
    with database.session() as session:
        exercise = _exercise(session, course)
        with pytest.raises(SubmissionRefused) as refused:
            submit(session, settings, student, exercise, "s.py", "pass\n", now=late)
    assert refused.value.status == 403
    assert "takes no late submissions" in refused.value.message
