"""Attempt numbers are a student's own on an exercise, on SQLite and on PostgreSQL: the
database refuses a second attempt under a number (checks, numbered 0, are not attempts); a
submit whose number was taken meanwhile tries again, reading the attempts and the limits
afresh, and says "try again" (503, to the student and to the LMS) when its numbers keep
being taken."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.models import (
    Course,
    Exercise,
    GradingRun,
    Submission,
    User,
    WebhookReceipt,
)
from grader.models.submissions import SubmissionKind
from grader.services import submissions
from grader.services.submissions import SubmissionRefused, submit
from grader.services.tasks import GRADE_TASK
from tests.grader.conftest import Backend, SentAfterCommit, UserFactory, csrf_token, login
from tests.grader.lms import make_lms, problem

SLUG = "aima-fig5.2-alphabeta"
SOURCE = "def max_value(game, state, alpha, beta):\n    return 3\n"


def exercise_of(backend: Backend, session: Session) -> Exercise:
    return session.scalars(
        select(Exercise).where(Exercise.course_id == backend.course.id, Exercise.slug == SLUG)
    ).one()


def stored(session: Session, student: User, exercise: Exercise, attempt: int, **kw: Any) -> None:
    """A submission row as it is stored, numbered ``attempt``, without the service."""
    session.add(
        Submission(
            user_id=student.id,
            exercise_id=exercise.id,
            attempt=attempt,
            filename="a.py",
            source=SOURCE,
            **kw,
        )
    )
    session.flush()


def numbers(backend: Backend, student: User) -> list[int]:
    with backend.database.session() as session:
        found = session.scalars(
            select(Submission.attempt)
            .where(Submission.user_id == student.id, Submission.kind == SubmissionKind.ATTEMPT)
            .order_by(Submission.id)
        )
        return list(found)


# The database.


def test_the_database_refuses_a_second_attempt_under_a_number(backend: Backend) -> None:
    ada, bea = backend.user(), backend.user()
    with backend.database.session() as session:
        exercise = exercise_of(backend, session)
        stored(session, ada, exercise, 1)
        stored(session, bea, exercise, 1)  # another student's attempt 1
    with pytest.raises(IntegrityError), backend.database.session() as session:
        stored(session, ada, exercise_of(backend, session), 1)
    assert numbers(backend, ada) == [1]


def test_a_student_has_many_checks_all_numbered_0(backend: Backend) -> None:
    ada = backend.user()
    with backend.database.session() as session:
        exercise = exercise_of(backend, session)
        for _ in range(3):
            stored(session, ada, exercise, 0, kind=SubmissionKind.CHECK)
        stored(session, ada, exercise, 1)
    with backend.database.session() as session:
        kinds = session.execute(
            select(Submission.kind, Submission.attempt).where(Submission.user_id == ada.id)
        ).all()
    assert sorted(kinds) == [("attempt", 1), ("check", 0), ("check", 0), ("check", 0)]


# The service.


def stale_reads(monkeypatch: pytest.MonkeyPatch, tries: int = 1) -> list[int]:
    """Make the first ``tries`` reads of a submit's standing stale, as if an attempt stored
    at the same moment by another request were not visible yet: those tries take the
    student's last number again, past the limits. Returns the numbers each try took."""
    admit: Callable[..., int] = submissions._admit
    taken: list[int] = []

    def admit_stale(
        session: Session, settings: Any, user: User, exercise: Exercise, *a: Any
    ) -> int:
        if len(taken) < tries:
            last = session.scalar(
                select(func.max(Submission.attempt)).where(
                    Submission.user_id == user.id,
                    Submission.exercise_id == exercise.id,
                    Submission.kind == SubmissionKind.ATTEMPT,
                )
            )
            taken.append(last or 1)
        else:
            taken.append(admit(session, settings, user, exercise, *a))
        return taken[-1]

    monkeypatch.setattr(submissions, "_admit", admit_stale)
    return taken


def test_a_number_taken_meanwhile_is_read_again_and_the_next_taken(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    ada = backend.user()
    with backend.database.session() as session:
        submit(session, backend.settings, ada, exercise_of(backend, session), "a.py", SOURCE)
    taken = stale_reads(monkeypatch)
    sent = SentAfterCommit()
    with backend.database.session() as session:
        second = submit(
            session, backend.settings, ada, exercise_of(backend, session), "b.py", SOURCE
        )
        sent.dispatch(session, GRADE_TASK, [second.runs[0].id])
        run_id = second.runs[0].id
    assert taken == [1, 2]
    assert numbers(backend, ada) == [1, 2]
    assert sent.runs == [run_id]  # sent once, after the commit
    with backend.database.session() as session:
        runs = session.scalars(
            select(GradingRun.submission_id).join(Submission).where(Submission.user_id == ada.id)
        )
        assert len(list(runs)) == 2  # nothing left of the try that failed


def test_a_number_taken_meanwhile_is_read_again_with_the_limits(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = replace(backend.settings, submission_min_gap_seconds=60)
    ada = backend.user()
    with backend.database.session() as session:
        submit(session, settings, ada, exercise_of(backend, session), "a.py", SOURCE)
    stale_reads(monkeypatch)
    with pytest.raises(SubmissionRefused) as refused, backend.database.session() as session:
        submit(session, settings, ada, exercise_of(backend, session), "b.py", SOURCE)
    assert refused.value.status == 429
    assert numbers(backend, ada) == [1]


def test_numbers_taken_at_every_try_say_try_again(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    ada = backend.user()
    with backend.database.session() as session:
        submit(session, backend.settings, ada, exercise_of(backend, session), "a.py", SOURCE)
    taken = stale_reads(monkeypatch, tries=1000)
    with backend.database.session() as session:
        exercise = exercise_of(backend, session)
        with pytest.raises(SubmissionRefused) as refused:
            submit(session, backend.settings, ada, exercise, "b.py", SOURCE)
        # The session is as it was before the submit: usable, nothing half made in it.
        made = session.scalars(select(Submission.attempt).where(Submission.user_id == ada.id))
        assert list(made) == [1]
    assert (refused.value.status, len(taken)) == (503, submissions.NUMBER_TRIES)
    assert "again" in refused.value.message and refused.value.retry_at is not None
    assert numbers(backend, ada) == [1]


# What the student and the LMS are told when the tries run out.


def test_the_web_asks_the_student_to_submit_again_in_a_moment(
    client: FlaskClient,
    settings: Settings,
    database: Database,
    course: Course,
    make_user: UserFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ada = make_user(course=course)
    backend = Backend("sqlite", settings, database, course)
    with database.session() as session:
        exercise = exercise_of(backend, session)
        submit(session, backend.settings, ada, exercise, "a.py", SOURCE)
    stale_reads(monkeypatch, tries=1000)
    login(client, ada)

    response = client.post(
        f"/exercises/{exercise.id}/submissions",
        data={"pasted": SOURCE, "csrf_token": csrf_token(client)},
    )

    assert response.status_code == 503
    assert "submit again in a moment" in response.get_data(as_text=True)
    assert int(response.headers["Retry-After"]) >= 1
    assert numbers(backend, ada) == [1]


def test_the_lms_is_told_to_retry_the_same_webhook(
    client: FlaskClient,
    database: Database,
    course: Course,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lms = make_lms(client, database, course)
    assert lms.post(message_id="msg_first").status_code == 202
    stale_reads(monkeypatch, tries=1000)

    response = lms.post(message_id="msg_again")

    document = problem(response, 503)
    assert document["type"].endswith("/problems/unavailable")
    assert "submit again in a moment" in document["detail"]
    assert int(response.headers["Retry-After"]) >= 1
    with database.session() as session:
        kept = session.scalars(select(WebhookReceipt.key)).all()
        assert kept == ["msg_first"]  # the same webhook-id can be sent again
        assert session.scalar(select(func.count()).select_from(Submission)) == 1
    monkeypatch.undo()
    assert lms.post(message_id="msg_again").status_code == 202
