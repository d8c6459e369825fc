"""Grade overrides, the audit log, the roster and the grade book, on SQLite and PostgreSQL:
an override is the student's grade while it stands, each change is recorded and told to
the student, and bad input is refused with a reason."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from grader.models import (
    AuditEvent,
    Exercise,
    ExternalIdentity,
    GradeOverride,
    GradingRun,
    LatePolicy,
    Notice,
    RunState,
    Submission,
    User,
    utcnow,
)
from grader.models.submissions import SubmissionKind
from grader.services import audit, gradebook, overrides, roster
from grader.services.grades import student_grade
from tests.grader.conftest import Backend

SLUG = "aima-fig5.2-alphabeta"


def _exercise(session, backend: Backend) -> Exercise:  # type: ignore[no-untyped-def]
    return session.scalars(
        select(Exercise).where(Exercise.course_id == backend.course.id, Exercise.slug == SLUG)
    ).one()


def graded_attempt(
    session,  # type: ignore[no-untyped-def]
    exercise: Exercise,
    user: User,
    score: float,
    *,
    verdict: str = "passed",
    ago: timedelta = timedelta(hours=1),
    kind: SubmissionKind = SubmissionKind.ATTEMPT,
) -> Submission:
    """A submission of ``user`` made ``ago``, with a counted graded run out of 10."""
    attempts = session.scalars(
        select(Submission).where(
            Submission.user_id == user.id,
            Submission.exercise_id == exercise.id,
            Submission.kind == SubmissionKind.ATTEMPT,
        )
    ).all()
    submission = Submission(
        user_id=user.id,
        exercise_id=exercise.id,
        attempt=0 if kind == SubmissionKind.CHECK else len(attempts) + 1,
        kind=kind,
        filename="s.py",
        source="def alpha_beta_search(game, state):\n    return None\n",
        created_at=utcnow() - ago,
    )
    session.add(submission)
    session.flush()
    assert exercise.current_version_id is not None
    session.add(
        GradingRun(
            submission_id=submission.id,
            exercise_version_id=exercise.current_version_id,
            state=RunState.GRADED,
            verdict=verdict,
            score=score,
            max_score=10.0,
        )
    )
    session.flush()
    return submission


def test_an_override_is_the_grade_while_it_stands_and_each_change_is_recorded(
    backend: Backend,
) -> None:
    teacher, student = backend.user("instructor"), backend.user()
    with backend.database.session() as session:
        exercise = _exercise(session, backend)
        graded_attempt(session, exercise, student, 4.0, verdict="failed")
        student_row = session.get(User, student.id)
        teacher_row = session.get(User, teacher.id)
        assert student_row is not None and teacher_row is not None

        changed = overrides.set_override(
            session, teacher_row, exercise, student_row, 7.0, "  Partial credit for B.  "
        )
        assert changed.override is not None and changed.delivery_ids == []
        grade = student_grade(session, exercise, student.id)
        assert (grade.score, grade.max_score) == (7.0, 10.0)
        assert grade.best is not None and grade.best.score == 4.0

        overrides.set_override(
            session, teacher_row, exercise, student_row, 10, "Regraded B by hand"
        )
        overrides.clear_override(session, teacher_row, exercise, student_row, "Mistake, sorry")
        assert student_grade(session, exercise, student.id).score == 4.0
        events = session.scalars(
            select(AuditEvent).where(AuditEvent.subject_id == student.id).order_by(AuditEvent.id)
        ).all()
        notices = session.scalars(
            select(Notice).where(Notice.user_id == student.id).order_by(Notice.id)
        ).all()

    assert [event.action for event in events] == [
        "grade.override",
        "grade.override",
        "grade.override_cleared",
    ]
    first, second, cleared = events
    assert first.actor_id == teacher.id and first.course_id == backend.course.id
    assert first.exercise_id == exercise.id
    assert first.details == {
        "before": None,
        "after": {"score": 7.0, "max_score": 10.0, "comment": "Partial credit for B."},
        "comment": "Partial credit for B.",
    }
    assert second.details["before"]["score"] == 7.0 and second.details["after"]["score"] == 10.0
    assert cleared.details["before"]["score"] == 10.0 and cleared.details["after"] is None
    assert cleared.details["comment"] == "Mistake, sorry"
    assert [notice.kind for notice in notices] == ["override"] * 3
    assert notices[0].message == ("Your instructor set your grade to 7 / 10: Partial credit for B.")


@pytest.mark.parametrize(
    ("score", "comment", "why"),
    [
        (7.0, "", "write a comment"),
        (7.0, "   ", "write a comment"),
        (-1.0, "fine", "from 0 to 10"),
        (10.5, "fine", "from 0 to 10"),
        (float("nan"), "fine", "from 0 to 10"),
        (None, "fine", "from 0 to 10"),
    ],
)
def test_an_override_needs_a_comment_and_a_score_in_range(
    backend: Backend, score: float | None, comment: str, why: str
) -> None:
    teacher, student = backend.user("instructor"), backend.user()
    with backend.database.session() as session:
        exercise = _exercise(session, backend)
        graded_attempt(session, exercise, student, 4.0)
        student_row, teacher_row = session.get(User, student.id), session.get(User, teacher.id)
        assert student_row is not None and teacher_row is not None
        with pytest.raises(overrides.OverrideRefused, match=why):
            overrides.set_override(session, teacher_row, exercise, student_row, score, comment)
        assert (
            session.scalar(select(GradeOverride).where(GradeOverride.user_id == student.id)) is None
        )
        assert session.scalar(select(AuditEvent).where(AuditEvent.subject_id == student.id)) is None


def test_clearing_needs_an_override_and_a_comment(backend: Backend) -> None:
    teacher, student = backend.user("instructor"), backend.user()
    with backend.database.session() as session:
        exercise = _exercise(session, backend)
        graded_attempt(session, exercise, student, 4.0)
        student_row, teacher_row = session.get(User, student.id), session.get(User, teacher.id)
        assert student_row is not None and teacher_row is not None
        with pytest.raises(overrides.OverrideRefused, match="not overridden"):
            overrides.clear_override(session, teacher_row, exercise, student_row, "why")
        overrides.set_override(session, teacher_row, exercise, student_row, 5, "ok")
        with pytest.raises(overrides.OverrideRefused, match="write a comment"):
            overrides.clear_override(session, teacher_row, exercise, student_row, "")


def test_no_override_before_anything_is_graded(backend: Backend) -> None:
    teacher, student = backend.user("instructor"), backend.user()
    with backend.database.session() as session:
        exercise = _exercise(session, backend)
        student_row, teacher_row = session.get(User, student.id), session.get(User, teacher.id)
        assert student_row is not None and teacher_row is not None
        with pytest.raises(overrides.OverrideRefused, match="maximum is unknown"):
            overrides.set_override(session, teacher_row, exercise, student_row, 5, "ok")


def test_audit_record_keeps_its_details(backend: Backend) -> None:
    teacher = backend.user("instructor")
    with backend.database.session() as session:
        event = audit.record(
            session, teacher.id, backend.course.id, "extension.grant", before=None, after="x"
        )
        assert event.id is not None
        assert (event.actor_id, event.exercise_id, event.subject_id) == (teacher.id, None, None)
        assert event.details == {"before": None, "after": "x"}


def test_the_roster_and_the_grade_book_read_the_grades(backend: Backend) -> None:
    teacher = backend.user("instructor")
    late, idle, clean = backend.user(), backend.user(), backend.user()
    with backend.database.session() as session:
        exercise = _exercise(session, backend)
        # Due two days ago; 10 % a started day, at most 25 %.
        exercise.due_at = utcnow() - timedelta(days=2)
        exercise.late_policy = LatePolicy.PENALTY
        exercise.late_penalty_per_day = 10.0
        exercise.late_penalty_cap = 25.0
        graded_attempt(session, exercise, late, 6.0, verdict="failed", ago=timedelta(days=3))
        graded_attempt(session, exercise, late, 10.0, ago=timedelta(hours=1))  # 2 days late
        graded_attempt(session, exercise, clean, 9.0, ago=timedelta(days=4))
        graded_attempt(session, exercise, clean, 1.0, ago=timedelta(days=4), kind="check")
        session.add(ExternalIdentity(source="integration:7", external_id="s-42", user_id=late.id))
        teacher_row, late_row = session.get(User, teacher.id), session.get(User, late.id)
        assert teacher_row is not None and late_row is not None
        overrides.set_override(session, teacher_row, exercise, late_row, 8.5, "=HYPERLINK()")

        listed = {row.user.id: row for row in roster.roster(session, backend.course)}
        rows = {row.email: row for row in gradebook.grade_book(session, exercise)}
        failed = roster.exercise_rows(session, exercise, roster.Filter.FAILED)
        late_rows = roster.exercise_rows(session, exercise, roster.Filter.LATE)
        missing = roster.exercise_rows(session, exercise, roster.Filter.NOT_SUBMITTED)

    assert listed[late.id].exercises_attempted == 1
    assert [str(identity) for identity in listed[late.id].identities] == ["integration:7: s-42"]
    assert listed[idle.id].last_activity is None and listed[idle.id].exercises_attempted == 0
    assert teacher.id not in listed
    row = rows[late.email]
    assert row.identity == "integration:7: s-42"
    assert (row.attempts, row.verdict) == (2, "passed")
    assert (row.latest_score, row.best_score) == (8.0, 8.0)  # 10 less 20 %; 6 was on time
    assert (row.grade, row.max_score) == (8.5, 10.0)
    assert (row.late, row.days_late, row.penalty) == (True, 2, 20.0)
    assert (row.overridden, row.override_comment) == (True, "=HYPERLINK()")
    assert rows[clean.email].attempts == 1  # the check is not an attempt
    assert (rows[clean.email].late, rows[clean.email].grade) == (False, 9.0)
    assert rows[idle.email].attempts == 0 and rows[idle.email].grade is None
    assert [r.user.id for r in failed] == [clean.id]  # 9 / 10 < the maximum
    assert [r.user.id for r in late_rows] == [late.id]
    assert idle.id in {r.user.id for r in missing} and late.id not in {r.user.id for r in missing}
