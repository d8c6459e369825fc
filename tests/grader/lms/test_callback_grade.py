"""The callback's ``grade``: the score after the late policy, beside the attempt's raw score."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.lms import callbacks
from grader.models import Course, Exercise, LatePolicy, utcnow
from grader.services.deadlines import INSTRUCTOR_ORIGIN
from tests.grader.conftest import UserFactory, stored_report
from tests.grader.lms.test_callbacks import Receiver, graded, make_integration, new_secret


@pytest.fixture(autouse=True)
def loopback_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(callbacks, "ALLOW_PRIVATE", True)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver(new_secret()).start()
    yield found
    found.stop()


def test_a_late_attempt_is_called_back_with_its_penalty(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
) -> None:
    due = utcnow() - timedelta(hours=25)
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(
                Exercise.course_id == course.id, Exercise.slug == "aima-fig5.2-alphabeta"
            )
        ).one()
        exercise.due_at = due
        exercise.due_origin = INSTRUCTOR_ORIGIN
        exercise.late_policy = LatePolicy.PENALTY
        exercise.late_penalty_per_day, exercise.late_penalty_cap = 10.0, 50.0
    integration_id = make_integration(database, course, receiver.secret)
    _submission_id, run_id = graded(
        database, settings, course, make_user, integration_id, receiver.url()
    )
    report = stored_report(database, run_id)
    assert report is not None and report["score"] == 100
    (got,) = receiver.got
    assert got.verified, got.problem
    grade = got.payload["data"]["grade"]
    assert grade["attempt"] == {
        "attempt": 1,
        "raw_score": 100,
        "score": pytest.approx(80.0),
        "late": True,
        "days_late": 2,
        "penalty_percent": 20.0,
    }
    assert (grade["score"], grade["max_score"]) == (pytest.approx(80.0), 100)
    assert (grade["overridden"], grade["extended"], grade["best_attempt"]) == (False, False, 1)
    assert grade["due_at"] == due.isoformat().replace("+00:00", "Z")
    assert got.payload["data"]["report"]["score"] == 100  # the report stays the grader's
