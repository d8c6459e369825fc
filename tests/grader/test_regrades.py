"""Regrades previewed before they count: uncounted runs, the summary of whose grade goes up
or down (after the late policy), confirming (runs counted, notices, the LMS told),
cancelling, one open regrade at a time, and runs that fail through our fault."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.models import (
    AuditEvent,
    Course,
    Exercise,
    GradingRun,
    LatePolicy,
    Notice,
    Regrade,
    RegradeState,
    Role,
    RunState,
    Submission,
    User,
    utcnow,
)
from grader.services import grade_sync, gradebook, grades, regrades
from grader.services.submissions import lane_for, submit
from tests.grader.conftest import Backend, SentAfterCommit, UserFactory

SLUG = "aima-fig5.2-alphabeta"


def _exercise(session: Session, course: Course) -> Exercise:
    return session.scalars(
        select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
    ).one()


def _graded_attempt(backend: Backend, user: User, score: float, *, days_late: int = 0) -> int:
    """An attempt of ``user``'s graded ``score`` out of 100 (no worker: its run is filled
    in), made in the ``days_late``-th day after the due date when there is one (0: the
    hour before it)."""
    with backend.database.session() as session:
        exercise = _exercise(session, backend.course)
        submission = submit(session, backend.settings, user, exercise, "a.py", "x = 1\n")
        if exercise.due_at is not None:
            submission.created_at = exercise.due_at + timedelta(days=days_late, hours=-1)
        _finish(submission.runs[0], score)
        return submission.id


def _finish(run: GradingRun, score: float | None, verdict: str = "failed") -> None:
    run.state = RunState.ERROR if verdict == "internal_error" else RunState.GRADED
    run.verdict = verdict
    run.score = score
    run.max_score = 100.0


def _grade_preview(backend: Backend, regrade_id: int, scores: dict[int, float | None]) -> None:
    """The preview's runs graded as a worker would: ``scores`` by user id (None: the run
    ended through our fault)."""
    with backend.database.session() as session:
        runs = session.scalars(select(GradingRun).where(GradingRun.regrade_id == regrade_id)).all()
        for run in runs:
            score = scores[run.submission.user_id]
            _finish(run, score, "internal_error" if score is None else "failed")


def _start(backend: Backend, teacher: User) -> tuple[int, SentAfterCommit]:
    sent = SentAfterCommit()
    with backend.database.session() as session:
        regrade = regrades.start(session, sent, teacher, _exercise(session, backend.course))
        regrade_id = regrade.id
    return regrade_id, sent


def test_a_preview_makes_uncounted_slow_runs_that_change_nothing_yet(backend: Backend) -> None:
    teacher = backend.user(Role.INSTRUCTOR)
    ada, bob = backend.user(), backend.user()
    _graded_attempt(backend, ada, 40.0)
    latest = _graded_attempt(backend, ada, 60.0)
    bobs = _graded_attempt(backend, bob, 50.0)
    with backend.database.session() as session:
        exercise = _exercise(session, backend.course)
        before_rows = gradebook.grade_book(session, exercise)

    regrade_id, sent = _start(backend, teacher)
    _grade_preview(backend, regrade_id, {ada.id: 90.0, bob.id: 10.0})

    with backend.database.session() as session:
        runs = session.scalars(select(GradingRun).where(GradingRun.regrade_id == regrade_id)).all()
        assert sorted(run.submission_id for run in runs) == sorted([latest, bobs])
        assert sorted(sent.runs) == sorted(run.id for run in runs)
        assert {(run.counted, run.lane) for run in runs} == {(False, "slow")}
        # Nobody sees the preview: the submission's run, the grades, the grade book.
        submission = session.get(Submission, latest)
        assert submission is not None and submission.latest_run is not None
        assert submission.latest_run.score == 60.0
        exercise = _exercise(session, backend.course)
        now = grades.student_grades(session, exercise, [ada.id, bob.id])
        assert (now[ada.id].score, now[bob.id].score) == (60.0, 50.0)
        shown = [(r.name, r.latest_score, r.best_score, r.grade) for r in before_rows]
        assert [
            (r.name, r.latest_score, r.best_score, r.grade)
            for r in gradebook.grade_book(session, exercise)
        ] == shown
        regrade = session.get(Regrade, regrade_id)
        assert regrade is not None and regrade.state == RegradeState.PREVIEWING


def test_a_preview_s_queued_runs_do_not_put_the_student_in_the_slow_lane(
    backend: Backend,
) -> None:
    teacher, ada = backend.user(Role.INSTRUCTOR), backend.user()
    _graded_attempt(backend, ada, 40.0)
    _start(backend, teacher)
    with backend.database.session() as session:
        assert lane_for(session, ada.id) == "fast"


def test_the_summary_gives_each_student_old_and_new_grades_after_the_late_policy(
    backend: Backend,
) -> None:
    teacher = backend.user(Role.INSTRUCTOR)
    with backend.database.session() as session:
        exercise = _exercise(session, backend.course)
        exercise.due_at = utcnow() - timedelta(days=3)
        exercise.late_policy = LatePolicy.PENALTY
        exercise.late_penalty_per_day = 10.0
    late, up, down, same = (backend.user() for _ in range(4))
    # One day late: 10% off, before and after.
    _graded_attempt(backend, late, 70.9, days_late=1)
    _graded_attempt(backend, up, 50.0)
    _graded_attempt(backend, down, 80.0)
    _graded_attempt(backend, same, 100.0)
    regrade_id, _ = _start(backend, teacher)
    _grade_preview(backend, regrade_id, {late.id: 77.8, up.id: 75.0, down.id: 20.0, same.id: 100.0})

    with backend.database.session() as session:
        regrade = session.get(Regrade, regrade_id)
        assert regrade is not None
        progress = regrades.refresh(session, regrade)
        assert (progress.total, progress.finished, progress.errors) == (4, 4, 0)
        assert regrade.state == RegradeState.READY
        summary = regrades.summary(session, regrade)
    changes = {change.user.id: change for change in summary.changes}
    assert (changes[late.id].before, changes[late.id].after) == pytest.approx((63.81, 70.02))
    assert changes[late.id].direction == "up"
    assert (changes[up.id].before, changes[up.id].after, changes[up.id].direction) == (
        50.0,
        75.0,
        "up",
    )
    assert changes[down.id].direction == "down"
    assert changes[same.id].direction == "same"
    assert summary.counts == {"up": 2, "down": 1, "same": 1, "error": 0}


def test_confirming_counts_the_runs_tells_the_students_and_the_lms(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    told: list[tuple[int, list[int], str]] = []

    def grade_changed(
        session: Session, exercise: Exercise, user_ids: Iterable[int], reason: str
    ) -> list[int]:
        told.append((exercise.id, sorted(user_ids), reason))
        return [9001]

    monkeypatch.setattr(grade_sync, "grade_changed", grade_changed)
    teacher = backend.user(Role.INSTRUCTOR)
    with backend.database.session() as session:
        exercise = _exercise(session, backend.course)
        exercise.due_at = utcnow() - timedelta(days=3)
        exercise.late_policy = LatePolicy.PENALTY
        exercise.late_penalty_per_day = 10.0
        exercise_id = exercise.id
    late, same = backend.user(), backend.user()
    late_attempt = _graded_attempt(backend, late, 70.9, days_late=1)
    _graded_attempt(backend, same, 100.0)
    regrade_id, sent = _start(backend, teacher)
    _grade_preview(backend, regrade_id, {late.id: 77.8, same.id: 100.0})

    with backend.database.session() as session:
        regrade = session.get(Regrade, regrade_id)
        assert regrade is not None
        done = regrades.confirm(session, sent, teacher, regrade)
    assert (done.counted, done.errors) == (2, 0)
    assert [change.user.id for change in done.changed] == [late.id]
    assert told == [(exercise_id, [late.id], "regrade")]
    assert sent.deliveries == [9001]
    with backend.database.session() as session:
        regrade = session.get(Regrade, regrade_id)
        assert regrade is not None
        assert (regrade.state, regrade.decided_by_id) == (RegradeState.CONFIRMED, teacher.id)
        runs = session.scalars(select(GradingRun).where(GradingRun.regrade_id == regrade_id)).all()
        assert {run.counted for run in runs} == {True}
        submission = session.get(Submission, late_attempt)
        assert submission is not None and submission.latest_run is not None
        assert submission.latest_run.regrade_id == regrade_id
        notices = session.scalars(select(Notice).where(Notice.exercise_id == exercise_id)).all()
        assert [(n.user_id, n.kind, n.submission_id) for n in notices] == [
            (late.id, "regrade", late_attempt)
        ]
        today = utcnow()
        assert notices[0].message == (
            f"Regraded on {today.day} {today:%b %Y} after the exercise changed: "
            "63.8 → 70.0 (out of 100)."
        )
        actions = session.scalars(
            select(AuditEvent.action).where(AuditEvent.exercise_id == exercise_id)
        ).all()
        assert sorted(actions) == ["grade.regrade", "regrade.confirm", "regrade.start"]
        assert grades.student_grade(session, _exercise(session, backend.course), late.id).score == (
            pytest.approx(70.02)
        )


def test_a_run_that_failed_through_our_fault_is_no_change_and_stays_uncounted(
    backend: Backend,
) -> None:
    teacher, ada, bob = backend.user(Role.INSTRUCTOR), backend.user(), backend.user()
    adas = _graded_attempt(backend, ada, 60.0)
    _graded_attempt(backend, bob, 50.0)
    regrade_id, sent = _start(backend, teacher)
    _grade_preview(backend, regrade_id, {ada.id: None, bob.id: 90.0})

    with backend.database.session() as session:
        regrade = session.get(Regrade, regrade_id)
        assert regrade is not None
        assert regrades.refresh(session, regrade).errors == 1
        summary = regrades.summary(session, regrade)
        assert summary.counts == {"up": 1, "down": 0, "same": 0, "error": 1}
        (failed,) = summary.having("error")
        assert (failed.user.id, failed.before, failed.after) == (ada.id, 60.0, 60.0)
        done = regrades.confirm(session, sent, teacher, regrade)
    assert (done.counted, done.errors, [c.user.id for c in done.changed]) == (1, 1, [bob.id])
    with backend.database.session() as session:
        submission = session.get(Submission, adas)
        assert submission is not None and submission.latest_run is not None
        assert (submission.latest_run.score, submission.latest_run.regrade_id) == (60.0, None)
        assert session.scalars(
            select(Notice.user_id).where(Notice.user_id.in_([ada.id, bob.id]))
        ).all() == [bob.id]


def test_only_one_regrade_of_an_exercise_is_open_at_a_time(backend: Backend) -> None:
    teacher, ada = backend.user(Role.INSTRUCTOR), backend.user()
    _graded_attempt(backend, ada, 60.0)
    first, _ = _start(backend, teacher)

    with pytest.raises(regrades.RegradeRefused, match="open already"):
        _start(backend, teacher)
    _grade_preview(backend, first, {ada.id: 70.0})
    with backend.database.session() as session:
        regrade = session.get(Regrade, first)
        assert regrade is not None
        regrades.refresh(session, regrade)  # ready: still open
    with pytest.raises(regrades.RegradeRefused, match="open already"):
        _start(backend, teacher)
    with backend.database.session() as session:
        regrade = session.get(Regrade, first)
        assert regrade is not None
        regrades.cancel(session, teacher, regrade)
    second, _ = _start(backend, teacher)
    assert second != first


def test_cancelling_deletes_the_preview_and_changes_nothing(backend: Backend) -> None:
    teacher, ada = backend.user(Role.INSTRUCTOR), backend.user()
    adas = _graded_attempt(backend, ada, 60.0)
    regrade_id, sent = _start(backend, teacher)
    _grade_preview(backend, regrade_id, {ada.id: 90.0})

    with backend.database.session() as session:
        regrade = session.get(Regrade, regrade_id)
        assert regrade is not None
        assert regrades.cancel(session, teacher, regrade) == 1

    with backend.database.session() as session:
        regrade = session.get(Regrade, regrade_id)
        assert regrade is not None and regrade.state == RegradeState.CANCELLED
        assert (
            session.scalars(select(GradingRun).where(GradingRun.regrade_id == regrade_id)).all()
            == []
        )
        submission = session.get(Submission, adas)
        assert submission is not None and [run.score for run in submission.runs] == [60.0]
        assert session.scalars(select(Notice).where(Notice.user_id == ada.id)).all() == []
        with pytest.raises(regrades.RegradeRefused, match="cancelled already"):
            regrades.confirm(session, sent, teacher, regrade)
    assert sent.deliveries == []


def test_a_preview_still_grading_cannot_be_confirmed(backend: Backend) -> None:
    teacher, ada = backend.user(Role.INSTRUCTOR), backend.user()
    _graded_attempt(backend, ada, 60.0)
    regrade_id, sent = _start(backend, teacher)
    with backend.database.session() as session:
        regrade = session.get(Regrade, regrade_id)
        assert regrade is not None
        with pytest.raises(regrades.RegradeRefused, match="still being graded"):
            regrades.confirm(session, sent, teacher, regrade)


def test_nothing_to_regrade_without_an_attempt(
    backend: Backend,
) -> None:
    teacher = backend.user(Role.INSTRUCTOR)
    with pytest.raises(regrades.RegradeRefused, match="no student"):
        _start(backend, teacher)


def test_a_preview_of_an_older_version_is_not_confirmed(
    backend: Backend, make_user: UserFactory
) -> None:
    teacher, ada = backend.user(Role.INSTRUCTOR), backend.user()
    _graded_attempt(backend, ada, 60.0)
    regrade_id, sent = _start(backend, teacher)
    _grade_preview(backend, regrade_id, {ada.id: 90.0})
    with backend.database.session() as session:
        exercise = _exercise(session, backend.course)
        other = session.scalars(
            select(Exercise).where(Exercise.course_id == backend.course.id, Exercise.slug != SLUG)
        ).first()
        assert other is not None
        # Any other version row stands for "another version was published".
        exercise.current_version_id = other.current_version_id
        regrade = session.get(Regrade, regrade_id)
        assert regrade is not None
        with pytest.raises(regrades.RegradeRefused, match="another version"):
            regrades.confirm(session, sent, teacher, regrade)


def test_a_notice_names_a_change_below_the_first_decimal() -> None:
    user = User(id=1, email="a@b.c", name="A", role=Role.STUDENT)
    change = regrades.Change(user, 1, 70.01, 70.04, 100.0)
    when = utcnow().replace(year=2026, month=11, day=27)
    assert regrades.regrade_message(when, change) == (
        "Regraded on 27 Nov 2026 after the exercise changed: 70.01 → 70.04 (out of 100)."
    )
    fewer = regrades.Change(user, 1, None, 70.0, None)
    assert regrades.regrade_message(when, fewer).endswith(": no grade → 70.0.")
