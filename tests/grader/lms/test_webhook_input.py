"""What the webhook takes: a JSON body sent as application/json, fields of exact types
(ids are strings), at most the integration's rate limit of signed requests; and a 503
with Retry-After, not a 500, while the database cannot be reached."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from grader.config import Settings
from grader.db import Database
from grader.models import Course, LmsSubmission, Submission, WebhookReceipt
from grader.web import create_app
from grader.web.limits import limiter
from tests.grader.conftest import configured
from tests.grader.lms import URL, Counts, Lms, count, counter, make_lms, problem, submission


@pytest.fixture(autouse=True)
def fresh_limits(app: Flask) -> Iterator[None]:
    """Counts of this test only (the app's limiter storage is emptied before and after)."""
    with app.app_context():
        limiter.reset()
    yield
    with app.app_context():
        limiter.reset()


@pytest.fixture
def lms(client: FlaskClient, database: Database, course: Course) -> Lms:
    return make_lms(client, database, course)


@pytest.fixture
def counts(database: Database) -> Counts:
    return counter(database)


# The media type.


def test_a_body_not_sent_as_json_is_415(lms: Lms, counts: Counts) -> None:
    before = counts()
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "text/json", ""):
        response = lms.post(headers={"Content-Type": content_type})
        document = problem(response, 415)
        assert document["type"].endswith("/problems/unsupported-media-type")
        assert "application/json" in document["detail"]
    assert counts() == before
    # The same webhook sent as JSON (a charset may be named) is taken.
    response = lms.post(headers={"Content-Type": "application/json; charset=utf-8"})
    assert response.status_code == 202, response.get_data(as_text=True)


# Exact types.


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        ({"user": {"id": True, "name": "Ada"}}, "#/user/id"),
        ({"user": {"id": 1, "name": "Ada"}}, "#/user/id"),
        ({"user": {"id": 1.5, "name": "Ada"}}, "#/user/id"),
        ({"user": {"id": "7", "name": 7}}, "#/user/name"),
        ({"exercise": 5}, "#/exercise"),
        ({"context_id": 42}, "#/context_id"),
        ({"context_id": False}, "#/context_id"),
        ({"source": ["print(1)"]}, "#/source"),
        ({"callback_url": 1}, "#/callback_url"),
    ],
)
def test_numbers_and_booleans_for_strings_are_refused_where_they_are(
    lms: Lms, counts: Counts, change: dict[str, object], pointer: str
) -> None:
    before = counts()
    document = problem(lms.post(submission(**change)), 422)
    assert document["type"].endswith("/problems/invalid-body")
    assert pointer in [error["pointer"] for error in document["errors"]]
    assert pointer[2:].replace("/", ".") in document["detail"]
    assert counts() == before


# The integration's rate limit.


def test_signed_webhooks_over_the_integrations_limit_are_429(
    lms: Lms, app: Flask, database: Database, course: Course, counts: Counts
) -> None:
    configured(app, integration_limits="3 per minute")
    for number in range(5):  # unsigned: refused before they count
        problem(lms.post(message_id=f"bad_{number}", secret="whsec_" + "A" * 32), 401)
    for number in range(3):
        user = {"id": f"u{number}", "name": f"Student {number}"}
        answer = lms.post(submission(user=user), message_id=f"msg_{number}")
        assert answer.status_code == 202, answer.get_data(as_text=True)
    before = counts()
    refused = lms.post(submission(user={"id": "u9", "name": "Nine"}), message_id="msg_9")
    document = problem(refused, 429)
    assert document["type"].endswith("/problems/too-many-requests")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert counts() == before

    other = make_lms(lms.client, database, course)  # another integration: its own count
    assert other.post(message_id="msg_other").status_code == 202


# The database is down.


def test_a_database_outage_is_503_with_retry_after(settings: Settings, lms: Lms) -> None:
    unreachable = Database("postgresql+psycopg://postgres@127.0.0.1:1/test?connect_timeout=2")
    app = create_app(replace(settings, database_url=unreachable.engine.url.render_as_string()))
    try:
        down = Lms(app.test_client(), lms.integration_id, lms.secret, lms.token)
        response = down.post()
        problem(response, 503)
        assert int(response.headers["Retry-After"]) > 0
        status = down.client.get(
            f"{URL.rsplit('/', 2)[0]}/submissions/1",
            headers={"Authorization": f"Bearer {lms.token}"},
        )
        problem(status, 503)
    finally:
        unreachable.engine.dispose()


def test_the_database_lost_between_the_receipt_and_the_submission_leaves_nothing(
    lms: Lms, database: Database, counts: Counts
) -> None:
    """The connection drops after the receipt is written, as a database restart does: the
    LMS gets a 503, nothing of the request stays, and its retry with the same webhook is
    accepted as the first would have been (not 409 while a lone receipt waits)."""
    lost: list[str] = []

    def drop_once(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        # From the submission's insert on, the database is away for the rest of the request.
        if lost or statement.lstrip().upper().startswith("INSERT INTO SUBMISSIONS"):
            lost.append(statement)
            raise OperationalError(statement, {}, Exception("server closed the connection"))

    before = counts()
    event.listen(database.engine, "before_cursor_execute", drop_once)
    try:
        failed = lms.post(message_id="msg_restart")
    finally:
        event.remove(database.engine, "before_cursor_execute", drop_once)
    assert lost, "the fault was not injected"
    problem(failed, 503)
    assert counts() == before
    assert count(database, WebhookReceipt) == 0

    again = lms.post(message_id="msg_restart")
    assert again.status_code == 202, again.get_data(as_text=True)
    assert count(database, Submission) == count(database, LmsSubmission) == 1
    assert count(database, WebhookReceipt) == 1
    replayed = lms.post(message_id="msg_restart")
    assert replayed.status_code == 202
    assert replayed.get_json()["submission_id"] == again.get_json()["submission_id"]
    assert count(database, Submission) == 1
