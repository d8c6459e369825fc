"""A due date carried by an LTI launch: kept on the exercise unless an instructor set one,
and the score sent to the platform follows the late policy."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.lti.launch import launch_due
from grader.models import AuditEvent, Exercise, LatePolicy, LtiLaunch, utcnow
from grader.models.base import aware
from tests.grader.lti.conftest import launch
from tests.grader.lti.platform import Platform
from tests.grader.lti.test_scores import submit_and_grade

CUSTOM = "https://purl.imsglobal.org/spec/lti/claim/custom"
SLUG = "aima-fig5.2-alphabeta"


def custom(**values: str) -> dict[str, str]:
    return {"exercise": SLUG, **values}


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"due_at": "2026-12-05T22:59:00Z"}, datetime(2026, 12, 5, 22, 59, tzinfo=UTC)),
        ({"lineitem_end": "2026-12-05T23:59:00+01:00"}, datetime(2026, 12, 5, 22, 59, tzinfo=UTC)),
        ({"due_at": "2026-12-05T22:59"}, datetime(2026, 12, 5, 22, 59, tzinfo=UTC)),
        ({"due_at": "$ResourceLink.submission.endDateTime"}, None),
        ({"due_at": "next friday"}, None),
        ({"due_at": ""}, None),
        ({}, None),
    ],
)
def test_the_due_date_a_launch_carries(values: dict[str, str], expected: datetime | None) -> None:
    assert launch_due({CUSTOM: custom(**values)}) == expected


def _exercise(database: Database) -> Exercise:
    with database.session() as session:
        record = session.scalars(select(LtiLaunch)).one()
        found = session.get(Exercise, record.exercise_id)
        assert found is not None
        session.expunge(found)
        return found


def test_a_launch_sets_the_due_date_unless_an_instructor_did(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    due = "2026-12-05T22:59:00Z"
    assert launch(client, platform, custom=custom(due_at=due)).status_code == 302
    exercise = _exercise(database)
    assert exercise.due_at is not None
    assert aware(exercise.due_at) == datetime(2026, 12, 5, 22, 59, tzinfo=UTC)
    assert exercise.due_origin == "lti"
    with database.session() as session:
        (event,) = session.scalars(select(AuditEvent)).all()
        assert event.action == "exercise.deadline" and event.actor_id is None

    # The platform moves it: followed.
    later = "2026-12-07T22:59:00Z"
    assert launch(client, platform, custom=custom(due_at=later)).status_code == 302
    moved = _exercise(database).due_at
    assert moved is not None and aware(moved).day == 7

    # An instructor's own date wins over the platform's.
    with database.session() as session:
        stored = session.get(Exercise, exercise.id)
        assert stored is not None
        stored.due_at = datetime(2026, 12, 1, tzinfo=UTC)
        stored.due_origin = "instructor"
    assert launch(client, platform, custom=custom(due_at=due)).status_code == 302
    kept = _exercise(database)
    assert kept.due_at is not None and aware(kept.due_at).day == 1
    assert kept.due_origin == "instructor"


def test_the_platform_gets_the_score_after_the_late_policy(
    app: Flask,
    client: FlaskClient,
    database: Database,
    settings: Settings,
    platform: Platform,
    registered: int,
) -> None:
    due = (utcnow() - timedelta(hours=25)).isoformat()
    assert launch(client, platform, custom=custom(due_at=due)).status_code == 302
    exercise = _exercise(database)
    with database.session() as session:
        stored = session.get(Exercise, exercise.id)
        assert stored is not None
        stored.late_policy = LatePolicy.PENALTY
        stored.late_penalty_per_day, stored.late_penalty_cap = 10.0, 50.0

    submit_and_grade(app, database, settings)

    (posted,) = platform.scores
    assert posted.score["scoreMaximum"] == 100
    assert posted.score["scoreGiven"] == pytest.approx(80.0)  # 2 started days, 10 % each
