"""Score passback end to end: a student launched from the simulated platform submits a
correct solution, grading (in process) makes the score delivery, and its first attempt
reaches the platform's line item; failures are retried and logged."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.lti import scores
from grader.lti.launch import SCORE_SCOPE
from grader.models import (
    Delivery,
    DeliveryKind,
    DeliveryState,
    Exercise,
    GradingRun,
    LtiLaunch,
    User,
    utcnow,
)
from grader.services.deliveries import attempt
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK
from tests.grader.lti.conftest import launch
from tests.grader.lti.platform import LINEITEM_SCOPE, Platform, TokenRequest

LIBRARY = Path(__file__).resolve().parents[3] / "exercises" / "implementations" / "alphabeta"


def submit_and_grade(
    app: Flask, database: Database, settings: Settings, name: str = "correct_fail_hard.py"
) -> int:
    """The launched student's submission of ``name``, committed, then sent to the queue
    (graded in process, its deliveries' first attempts made); the run's id."""
    with database.session() as session:
        record = session.scalars(select(LtiLaunch)).one()
        user = session.get(User, record.user_id)
        exercise = session.get(Exercise, record.exercise_id)
        assert user is not None and exercise is not None
        submission = submit(session, settings, user, exercise, name, (LIBRARY / name).read_text())
        run_id = session.scalars(
            select(GradingRun.id).where(GradingRun.submission_id == submission.id)
        ).one()
    assert app.extensions["grader.queue"].send(GRADE_TASK, [run_id]) == 1
    return run_id


def score_tokens(platform: Platform) -> list[TokenRequest]:
    """The platform's token requests for the score scope (a launch's line item is read
    with a token of its own)."""
    return [request for request in platform.token_requests if request.scope == SCORE_SCOPE]


def score_deliveries(database: Database) -> list[Delivery]:
    with database.session() as session:
        found = list(
            session.scalars(
                select(Delivery)
                .where(Delivery.kind == DeliveryKind.LTI_SCORE)
                .order_by(Delivery.id)
            )
        )
        for delivery in found:
            delivery.log  # noqa: B018 - loaded while the session is open
        return found


def test_a_correct_submission_s_score_reaches_the_platform_once(
    app: Flask,
    client: FlaskClient,
    database: Database,
    settings: Settings,
    platform: Platform,
    registered: int,
) -> None:
    landed = launch(client, platform)
    assert landed.status_code == 302 and landed.headers["Location"].startswith("/exercises/")

    run_id = submit_and_grade(app, database, settings)

    (posted,) = platform.scores
    assert posted.authorized
    assert posted.headers["Content-Type"] == "application/vnd.ims.lis.v1.score+json"
    score = posted.score
    assert score["scoreGiven"] == 100
    assert score["scoreMaximum"] == 100
    assert score["activityProgress"] == "Completed"
    assert score["gradingProgress"] == "FullyGraded"
    assert score["userId"] == "lms-user-42"
    stamp = datetime.fromisoformat(score["timestamp"])
    assert stamp.tzinfo is not None
    assert abs(stamp - datetime.now(UTC)) < timedelta(minutes=5)
    (token_request,) = score_tokens(platform)
    assert token_request.accepted, token_request.problem
    assert token_request.form["scope"] == SCORE_SCOPE

    (delivery,) = score_deliveries(database)
    assert (delivery.state, delivery.attempts, delivery.event) == (
        DeliveryState.DELIVERED,
        1,
        "score",
    )
    assert delivery.platform_id == registered
    assert delivery.run_id == run_id
    assert delivery.url == platform.lineitem_url + "/scores"
    assert delivery.payload == score
    assert [row.status_code for row in delivery.log] == [200]


def test_a_failing_scores_endpoint_is_retried_and_each_attempt_logged(
    app: Flask,
    client: FlaskClient,
    database: Database,
    settings: Settings,
    platform: Platform,
    registered: int,
) -> None:
    platform.score_answers = [(503, {"Retry-After": "120"})]
    assert launch(client, platform).status_code == 302
    before = utcnow()

    submit_and_grade(app, database, settings)

    (delivery,) = score_deliveries(database)
    assert (delivery.state, delivery.attempts) == (DeliveryState.PENDING, 1)
    assert delivery.last_error is not None and delivery.last_error.startswith("HTTP 503")
    planned = delivery.next_attempt_at
    assert planned is not None
    assert planned.replace(tzinfo=planned.tzinfo or UTC) >= before + timedelta(seconds=119)

    with database.session() as session:
        row = session.get(Delivery, delivery.id)
        assert row is not None
        row.next_attempt_at = utcnow() - timedelta(seconds=1)
    with database.sessions() as session:
        assert attempt(session, delivery.id) is None

    (delivery,) = score_deliveries(database)
    assert (delivery.state, delivery.attempts) == (DeliveryState.DELIVERED, 2)
    assert [row.status_code for row in delivery.log] == [503, 200]
    assert delivery.log[0].error is not None and "503" in delivery.log[0].error
    assert [post.score for post in platform.scores] == [delivery.payload] * 2
    assert len(score_tokens(platform)) == 1  # the token was kept for the second attempt


def test_a_token_the_platform_refuses_is_logged_and_retried(
    app: Flask,
    client: FlaskClient,
    database: Database,
    settings: Settings,
    platform: Platform,
    registered: int,
) -> None:
    platform.tool_jwks = {"keys": []}  # the platform does not know the tool's key yet
    assert launch(client, platform).status_code == 302

    submit_and_grade(app, database, settings)

    (delivery,) = score_deliveries(database)
    assert (delivery.state, delivery.attempts) == (DeliveryState.PENDING, 1)
    (logged,) = delivery.log
    assert logged.status_code is None
    assert logged.error is not None and "token endpoint answered HTTP 401" in logged.error
    assert platform.scores == []


def test_no_score_is_sent_without_a_line_item_or_the_score_scope(
    app: Flask,
    client: FlaskClient,
    database: Database,
    settings: Settings,
    platform: Platform,
    registered: int,
) -> None:
    ags = {"scope": [LINEITEM_SCOPE], "lineitem": platform.lineitem_url}
    assert launch(client, platform, endpoint=ags).status_code == 302

    submit_and_grade(app, database, settings)

    assert score_deliveries(database) == []
    assert platform.scores == [] and score_tokens(platform) == []


def test_a_wrong_submission_sends_its_lower_score(
    app: Flask,
    client: FlaskClient,
    database: Database,
    settings: Settings,
    platform: Platform,
    registered: int,
) -> None:
    assert launch(client, platform).status_code == 302
    wrong = sorted(
        path.name for path in LIBRARY.glob("*.py") if not path.name.startswith("correct")
    )

    submit_and_grade(app, database, settings, wrong[0])

    (posted,) = platform.scores
    assert posted.score["scoreMaximum"] == 100
    assert 0 <= posted.score["scoreGiven"] < 100


def test_the_scores_url_keeps_a_line_item_s_query() -> None:
    assert scores.scores_url("https://lms/items/7") == "https://lms/items/7/scores"
    assert scores.scores_url("https://lms/items/7/?t=1") == "https://lms/items/7/scores?t=1"
