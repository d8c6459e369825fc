"""A grade that changes without a new grading (an override) reaches the LMS: a signed
``grade.changed`` callback to the latest submission's callback URL, and nothing for a
student who never came through an LMS."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.models import Course, DeliveryState, Exercise, GradeOverride, Submission
from grader.services.deliveries import attempt
from grader.services.grade_sync import grade_changed
from grader.web.api import OPENAPI
from tests.grader.conftest import UserFactory
from tests.grader.lms.test_callbacks import (
    Receiver,
    deliveries_of,
    graded,
    loopback_allowed,
    make_integration,
    receiver,
    student_of,
)

__all__ = ["loopback_allowed", "receiver"]  # the receiver's fixtures, used here too


def _override(database: Database, submission_id: int, score: float, comment: str) -> list[int]:
    with database.session() as session:
        submission = session.get(Submission, submission_id)
        assert submission is not None
        exercise = session.get(Exercise, submission.exercise_id)
        assert exercise is not None
        session.add(
            GradeOverride(
                exercise_id=exercise.id,
                user_id=submission.user_id,
                score=score,
                max_score=100.0,
                comment=comment,
            )
        )
        session.flush()
        return grade_changed(session, exercise, [submission.user_id], reason="override")


def test_an_override_is_called_back_signed_as_grade_changed(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
) -> None:
    integration_id = make_integration(database, course, receiver.secret)
    submission_id, _ = graded(database, settings, course, make_user, integration_id, receiver.url())
    assert [got.payload["type"] for got in receiver.got] == ["submission.graded"]

    (made,) = _override(database, submission_id, 42.5, "late by agreement")
    with database.sessions() as session:
        assert attempt(session, made) is None

    changed = [got for got in receiver.got if got.payload["type"] == "grade.changed"]
    (got,) = changed
    assert got.verified, got.problem
    data = got.payload["data"]
    assert data["submission_id"] == submission_id
    assert data["user_id"] == f"lms-user-{student_of(database, submission_id)}"
    assert data["context_id"] == "course-42"
    assert data["reason"] == "override"
    assert data["exercise"] == "aima-fig5.2-alphabeta"
    assert data["grade"]["score"] == 42.5
    assert data["grade"]["max_score"] == 100.0
    assert data["grade"]["overridden"] is True
    assert data["grade"]["comment"] == "late by agreement"
    _matches_its_description(got.payload)
    states = {delivery.event: delivery.state for delivery in deliveries_of(database, submission_id)}
    assert states == {
        "submission.graded": DeliveryState.DELIVERED,
        "grade.changed": DeliveryState.DELIVERED,
    }


def test_no_grade_event_without_an_lms_or_without_a_grade(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    student = make_user(course=course)
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id).limit(1)
        ).one()
        # No attempt at all: nothing to say.
        assert grade_changed(session, exercise, [student.id], reason="extension") == []
        assert grade_changed(session, exercise, [], reason="extension") == []


def _matches_its_description(sent: dict[str, Any]) -> None:
    """``sent`` has every field the OpenAPI document's GradeChangedEvent requires and no
    other."""
    schemas = json.loads(OPENAPI.read_text())["components"]["schemas"]
    event = schemas["GradeChangedEvent"]
    assert set(event["required"]) <= set(sent) <= set(event["properties"])
    assert sent["type"] in event["properties"]["type"]["enum"]
    data = event["properties"]["data"]
    assert set(data["required"]) <= set(sent["data"]) <= set(data["properties"])
    assert sent["data"]["reason"] in data["properties"]["reason"]["enum"]
    grade = schemas["Grade"]
    assert set(grade["required"]) <= set(sent["data"]["grade"]) <= set(grade["properties"])
