"""A due date moved or an extension granted or removed reaches the LMS as ``grade.changed``
for the students whose grade it changes, and only for them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.models import (
    AuditEvent,
    Course,
    Exercise,
    Extension,
    LatePolicy,
    Role,
    Submission,
    User,
    utcnow,
)
from grader.services import deadlines
from grader.services.deliveries import attempt
from tests.grader.conftest import UserFactory
from tests.grader.lms.test_callbacks import (
    Receiver,
    graded,
    loopback_allowed,
    make_integration,
    receiver,
)

__all__ = ["loopback_allowed", "receiver"]


def _late_exercise(database: Database, course: Course) -> int:
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(
                Exercise.course_id == course.id, Exercise.slug == "aima-fig5.2-alphabeta"
            )
        ).one()
        exercise.due_at = utcnow() - timedelta(hours=2)
        exercise.due_origin = deadlines.INSTRUCTOR_ORIGIN
        exercise.late_policy = LatePolicy.PENALTY
        exercise.late_penalty_per_day, exercise.late_penalty_cap = 10.0, 50.0
        return exercise.id


def _send(database: Database, ids: list[int]) -> None:
    for delivery_id in ids:
        with database.sessions() as session:
            assert attempt(session, delivery_id) is None


def _changed(receiver: Receiver) -> list[dict[str, object]]:
    return [got.payload for got in receiver.got if got.payload["type"] == "grade.changed"]


def test_an_extension_lifts_the_penalty_and_the_lms_is_told(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
) -> None:
    exercise_id = _late_exercise(database, course)
    teacher = make_user(Role.INSTRUCTOR, course)
    bystander = make_user(course=course)  # no attempt: no grade, nothing to send
    integration_id = make_integration(database, course, receiver.secret)
    submission_id, _ = graded(database, settings, course, make_user, integration_id, receiver.url())
    (graded_event,) = receiver.got
    assert graded_event.payload["data"]["grade"]["score"] == pytest.approx(90.0)

    with database.session() as session:
        exercise = session.get(Exercise, exercise_id)
        actor = session.get(User, teacher.id)
        submission = session.get(Submission, submission_id)
        assert exercise is not None and actor is not None and submission is not None
        student_id = submission.user_id
        ids = deadlines.grant_extension(
            session, exercise, actor, student_id, utcnow() + timedelta(days=1), "ill"
        )
        assert (
            deadlines.grant_extension(
                session, exercise, actor, bystander.id, utcnow() + timedelta(days=1), "away"
            )
            == []
        )
    assert len(ids) == 1
    _send(database, ids)
    (changed,) = _changed(receiver)
    data = changed["data"]
    assert isinstance(data, dict)
    assert data["reason"] == "extension"
    assert data["grade"]["score"] == 100 and data["grade"]["extended"] is True

    # Granting the same extension again changes no grade: nothing more is sent.
    with database.session() as session:
        exercise = session.get(Exercise, exercise_id)
        actor = session.get(User, teacher.id)
        assert exercise is not None and actor is not None
        extension = session.scalars(select(Extension).where(Extension.user_id == student_id)).one()
        again = deadlines.grant_extension(
            session, exercise, actor, student_id, extension.due_at, "ill"
        )
        assert again == []
        # Removed: the penalty is back, and the LMS is told.
        removed = deadlines.remove_extension(session, exercise, actor, extension)
    _send(database, removed)
    last = _changed(receiver)[-1]["data"]
    assert isinstance(last, dict)
    assert last["grade"]["score"] == pytest.approx(90.0) and last["grade"]["extended"] is False

    # Moving the due date past the attempt clears the penalty for everyone it touched.
    with database.session() as session:
        exercise = session.get(Exercise, exercise_id)
        actor = session.get(User, teacher.id)
        assert exercise is not None and actor is not None
        rules = deadlines.Rules.of(exercise)
        moved = deadlines.set_rules(
            session,
            exercise,
            actor,
            deadlines.Rules(
                rules.opens_at,
                utcnow() + timedelta(days=3),
                rules.policy,
                rules.penalty_per_day,
                rules.penalty_cap,
            ),
        )
        actions = [event.action for event in session.scalars(select(AuditEvent))]
    _send(database, moved)
    last = _changed(receiver)[-1]["data"]
    assert isinstance(last, dict)
    assert last["reason"] == "deadline" and last["grade"]["score"] == 100
    assert actions == [
        "extension.grant",
        "extension.grant",
        "extension.grant",
        "extension.remove",
        "exercise.deadline",
    ]
