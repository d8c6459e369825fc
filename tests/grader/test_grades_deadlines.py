"""What a due date, a late policy and an extension do to an attempt (grader.services.grades),
and the submissions refused before the opening and after a refusing due date."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from grader.models import (
    Exercise,
    Extension,
    GradingRun,
    LatePolicy,
    RunState,
    Submission,
)
from grader.services.grades import ON_TIME, Lateness, deadline, student_grade
from grader.services.submissions import SubmissionRefused, submit
from tests.grader.conftest import Backend

DUE = datetime(2026, 12, 5, 22, 59, tzinfo=UTC)
SOURCE = "def max_value(game, state, alpha, beta):\n    return 3\n"


def exercise_due(
    due_at: datetime | None = DUE,
    policy: LatePolicy = LatePolicy.PENALTY,
    per_day: float = 10.0,
    cap: float = 50.0,
    opens_at: datetime | None = None,
) -> Exercise:
    return Exercise(
        slug="e",
        title="E",
        course_id=1,
        opens_at=opens_at,
        due_at=due_at,
        late_policy=policy,
        late_penalty_per_day=per_day,
        late_penalty_cap=cap,
    )


def extension(due_at: datetime) -> Extension:
    return Extension(exercise_id=1, user_id=1, due_at=due_at, reason="ill")


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        (timedelta(0), ON_TIME),  # exactly at the due date: on time
        (-timedelta(days=3), ON_TIME),
        (timedelta(seconds=1), Lateness(True, 1, 10.0)),  # one second: one started day
        (timedelta(hours=24), Lateness(True, 1, 10.0)),
        (timedelta(hours=25), Lateness(True, 2, 20.0)),
        (timedelta(days=4, seconds=1), Lateness(True, 5, 50.0)),
        (timedelta(days=30), Lateness(True, 30, 50.0)),  # the cap
    ],
)
def test_lateness_counts_started_days_up_to_the_cap(after: timedelta, expected: Lateness) -> None:
    assert deadline(exercise_due()).lateness(DUE + after) == expected


def test_a_naive_time_is_read_as_utc() -> None:
    # SQLite gives back naive UTC times.
    naive = (DUE + timedelta(hours=1)).replace(tzinfo=None)
    assert deadline(exercise_due()).lateness(naive) == Lateness(True, 1, 10.0)


@pytest.mark.parametrize(
    ("policy", "per_day", "cap", "penalty"),
    [
        (LatePolicy.NONE, 10.0, 50.0, 0.0),  # flagged late, no penalty
        (LatePolicy.PENALTY, 0.0, 50.0, 0.0),  # a penalty of 0
        (LatePolicy.PENALTY, 10.0, 0.0, 0.0),  # a cap of 0
        (LatePolicy.PENALTY, 60.0, 100.0, 100.0),  # never more than the whole score
    ],
)
def test_policies_without_a_bite_still_flag_late(
    policy: LatePolicy, per_day: float, cap: float, penalty: float
) -> None:
    lateness = deadline(exercise_due(policy=policy, per_day=per_day, cap=cap)).lateness(
        DUE + timedelta(hours=30)
    )
    assert lateness == Lateness(True, 2, penalty)


def test_the_penalty_lowers_the_score() -> None:
    assert Lateness(True, 1, 10.0).apply(7.0) == pytest.approx(6.3)
    assert Lateness(True, 1, 10.0).apply(None) is None
    assert ON_TIME.apply(7.0) == 7.0


def test_no_due_date_means_never_late_nor_refused() -> None:
    found = deadline(exercise_due(due_at=None, policy=LatePolicy.REFUSE))
    assert found.lateness(DUE + timedelta(days=300)) == ON_TIME
    assert found.refuses(DUE + timedelta(days=300)) is None


def test_an_extension_later_than_the_due_date_gives_time() -> None:
    found = deadline(exercise_due(), extension(DUE + timedelta(days=2)))
    assert found.extended and found.due_at == DUE + timedelta(days=2)
    assert found.course_due_at == DUE
    assert found.lateness(DUE + timedelta(days=1)) == ON_TIME
    assert found.lateness(DUE + timedelta(days=2, hours=1)) == Lateness(True, 1, 10.0)


def test_an_extension_earlier_than_the_due_date_takes_no_time_away() -> None:
    # An extension that a moved due date overtook is moot; it never shortens the time.
    found = deadline(exercise_due(), extension(DUE - timedelta(days=2)))
    assert not found.extended and found.due_at == DUE
    assert found.lateness(DUE - timedelta(days=1)) == ON_TIME
    same = deadline(exercise_due(), extension(DUE))
    assert not same.extended and same.due_at == DUE


def test_an_extension_of_an_exercise_without_a_due_date_is_moot() -> None:
    found = deadline(exercise_due(due_at=None), extension(DUE))
    assert not found.extended and found.due_at is None


def test_refusal_before_the_opening_and_after_a_refusing_due_date() -> None:
    opens = DUE - timedelta(days=7)
    refusing = deadline(exercise_due(policy=LatePolicy.REFUSE, opens_at=opens))
    assert "opens" in (refusing.refuses(opens - timedelta(seconds=1)) or "")
    assert refusing.refuses(opens) is None  # open from that very moment
    assert refusing.refuses(DUE) is None  # exactly at the due date: still accepted
    assert "no late submissions" in (refusing.refuses(DUE + timedelta(seconds=1)) or "")
    extended = deadline(exercise_due(policy=LatePolicy.REFUSE), extension(DUE + timedelta(days=1)))
    assert extended.refuses(DUE + timedelta(hours=23)) is None
    assert extended.refuses(DUE + timedelta(days=1, seconds=1)) is not None
    for policy in (LatePolicy.NONE, LatePolicy.PENALTY):
        assert deadline(exercise_due(policy=policy)).refuses(DUE + timedelta(days=9)) is None


def _graded(backend: Backend, submission_id: int, score: float) -> None:
    with backend.database.session() as session:
        run = session.scalars(
            select(GradingRun).where(GradingRun.submission_id == submission_id)
        ).one()
        run.state, run.verdict, run.score, run.max_score = RunState.GRADED, "passed", score, 10.0


def test_grades_apply_the_policy_and_the_extension(backend: Backend) -> None:
    student = backend.user()
    with backend.database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == backend.course.id).order_by(Exercise.id)
        ).first()
        assert exercise is not None
        exercise.due_at = DUE
        exercise.late_policy = LatePolicy.PENALTY
        exercise.late_penalty_per_day, exercise.late_penalty_cap = 10.0, 50.0
        exercise_id = exercise.id
        on_time = submit(session, backend.settings, student, exercise, "a.py", SOURCE, now=DUE).id
        late = submit(
            session, backend.settings, student, exercise, "b.py", SOURCE,
            now=DUE + timedelta(hours=25),
        ).id  # fmt: skip
    _graded(backend, on_time, 5.0)
    _graded(backend, late, 7.0)
    with backend.database.session() as session:
        exercise = session.get(Exercise, exercise_id)
        assert exercise is not None
        grade = student_grade(session, exercise, student.id)
        first, second = grade.attempts
        assert (first.lateness, first.score) == (ON_TIME, 5.0)
        assert second.lateness == Lateness(True, 2, 20.0)
        assert (second.raw_score, second.score) == (7.0, pytest.approx(5.6))
        assert grade.best is second and grade.score == pytest.approx(5.6) and grade.late
        session.add(
            Extension(exercise_id=exercise_id, user_id=student.id, due_at=DUE + timedelta(days=2))
        )
    with backend.database.session() as session:
        exercise = session.get(Exercise, exercise_id)
        assert exercise is not None
        grade = student_grade(session, exercise, student.id)
        assert grade.deadline.extended and not grade.late
        assert grade.score == 7.0


def test_submit_refuses_in_words_before_the_opening_and_after_the_due_date(
    backend: Backend,
) -> None:
    student = backend.user()
    with backend.database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == backend.course.id).order_by(Exercise.id)
        ).first()
        assert exercise is not None
        exercise.opens_at, exercise.due_at = DUE - timedelta(days=7), DUE
        exercise.late_policy = LatePolicy.REFUSE
        for moment in (DUE - timedelta(days=8), DUE + timedelta(seconds=1)):
            with pytest.raises(SubmissionRefused) as refused:
                submit(session, backend.settings, student, exercise, "a.py", SOURCE, now=moment)
            assert refused.value.status == 403
            assert "UTC" in refused.value.message
        accepted = submit(session, backend.settings, student, exercise, "a.py", SOURCE, now=DUE)
        assert session.get(Submission, accepted.id) is not None
