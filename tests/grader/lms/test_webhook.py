"""The signed submission webhook: verified with the Standard Webhooks library, idempotent,
graded in process (eager queue), refused with problem documents."""

from __future__ import annotations

import hashlib
import io
import json
import math
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from standardwebhooks.webhooks import Webhook

from grader.db import Database
from grader.lms import callbacks, integrations
from grader.models import (
    Course,
    ExternalIdentity,
    Integration,
    LmsSubmission,
    Membership,
    Submission,
    User,
    WebhookReceipt,
)
from tests.grader.conftest import configured
from tests.grader.lms import (
    EXERCISE,
    URL,
    WRONG,
    Counts,
    Lms,
    count,
    counter,
    make_lms,
    problem,
    submission,
)


@pytest.fixture
def lms(client: FlaskClient, database: Database, course: Course) -> Lms:
    return make_lms(client, database, course)


@pytest.fixture
def counts(database: Database) -> Counts:
    return counter(database)


# Accepted.


def test_a_good_webhook_is_accepted_and_graded(lms: Lms, database: Database) -> None:
    response = lms.post()
    assert response.status_code == 202, response.get_data(as_text=True)
    answer = response.get_json()
    assert response.headers["Location"] == answer["status_url"]
    assert answer["status_url"].endswith(f"/api/v1/submissions/{answer['submission_id']}")

    status = lms.client.get(answer["status_url"], headers={"Authorization": f"Bearer {lms.token}"})
    assert status.status_code == 200
    graded = status.get_json()
    assert graded["status"] == "graded"
    assert graded["verdict"] == "passed"
    assert graded["score"] == 100
    assert graded["report"]["exercise"] == EXERCISE
    with database.session() as session:
        found = session.get(Submission, answer["submission_id"])
        assert found is not None and found.origin == "lms" and found.attempt == 1
        origin = session.get(LmsSubmission, found.id)
        assert origin is not None
        assert (origin.integration_id, origin.context_id) == (lms.integration_id, "course-42")
        assert origin.callback_url is None
        user = session.get(User, found.user_id)
        assert user is not None
        # The LMS's address is kept beside the account, never as its sign-in address.
        assert (user.name, user.lms_email, user.password_hash) == (
            "Ada Student",
            "ada@uni.example.edu",
            None,
        )
        assert user.email.endswith("@lms.invalid")


def test_the_student_is_made_once_and_enrolled(
    lms: Lms, database: Database, course: Course
) -> None:
    first = lms.post(message_id="msg_a").get_json()
    second = lms.post(submission(source=WRONG), message_id="msg_b").get_json()
    assert first["submission_id"] != second["submission_id"]
    with database.session() as session:
        a = session.get(Submission, first["submission_id"])
        b = session.get(Submission, second["submission_id"])
        assert a is not None and b is not None
        assert a.user_id == b.user_id
        assert (a.attempt, b.attempt) == (1, 2)
        identities = session.scalars(select(ExternalIdentity)).all()
        assert [(i.source, i.external_id) for i in identities] == [
            (f"integration:{lms.integration_id}", "lms-user-7")
        ]
        memberships = session.scalars(
            select(Membership).where(Membership.user_id == a.user_id)
        ).all()
        assert [(m.course_id, m.role) for m in memberships] == [(course.id, "student")]


def test_a_taken_or_missing_email_gets_a_placeholder(
    lms: Lms, database: Database, make_user: Callable[..., User]
) -> None:
    someone = make_user()
    taken = {"id": "1", "name": "Bea", "email": someone.email}
    missing = {"id": "2", "name": "Cy"}
    a = lms.post(submission(user=taken), message_id="m1").get_json()
    b = lms.post(submission(user=missing), message_id="m2").get_json()
    with database.session() as session:
        users = [
            session.get(User, session.get(Submission, item["submission_id"]).user_id)  # type: ignore[union-attr]
            for item in (a, b)
        ]
        emails = [user.email for user in users if user is not None]
        assert all(email.endswith("@lms.invalid") for email in emails)
        assert len(set(emails)) == 2
        assert someone.id not in [user.id for user in users if user is not None]


def test_a_replay_answers_with_the_same_submission(lms: Lms, counts: Counts) -> None:
    first = lms.post(message_id="msg_same")
    before = counts()
    again = lms.post(message_id="msg_same")
    assert again.status_code == 202
    assert again.get_json() == first.get_json()
    assert counts() == before


@pytest.mark.parametrize("first_key", [None, "sub-9"])
def test_a_replay_with_an_added_or_changed_idempotency_key_is_still_a_replay(
    lms: Lms, counts: Counts, first_key: str | None
) -> None:
    # A captured signed webhook sent again with an unsigned Idempotency-Key of the
    # attacker's choosing: the signed webhook-id alone decides.
    first = lms.post(message_id="msg_1", headers={"Idempotency-Key": first_key or ""})
    assert first.status_code == 202
    before = counts()
    for key in ("x", "sub-10", "msg_2"):
        again = lms.post(message_id="msg_1", headers={"Idempotency-Key": key})
        assert again.status_code == 202
        assert again.get_json() == first.get_json()
    assert counts() == before


def test_the_same_key_with_another_body_is_422(lms: Lms, counts: Counts) -> None:
    lms.post(message_id="msg_same")
    before = counts()
    document = problem(lms.post(submission(source=WRONG), message_id="msg_same"), 422)
    assert document["type"].endswith("/problems/key-reused")
    assert counts() == before


def test_a_receipt_left_by_a_dead_request_is_taken_over(lms: Lms, database: Database) -> None:
    # Committed before its submission by an earlier version of the service, a moment ago:
    # no request of this version holds a receipt it has not committed with its submission.
    body = json.dumps(submission()).encode()
    with database.session() as session:
        session.add(
            WebhookReceipt(
                integration_id=lms.integration_id,
                key="msg_dead",
                body_hash=hashlib.sha256(body).hexdigest(),
            )
        )
    response = lms.post(body=body, message_id="msg_dead")
    assert response.status_code == 202, response.get_data(as_text=True)
    with database.session() as session:
        receipt = session.scalar(select(WebhookReceipt).where(WebhookReceipt.key == "msg_dead"))
        assert receipt is not None
        assert receipt.submission_id == response.get_json()["submission_id"]


def test_an_allowed_callback_url_is_kept(
    lms: Lms, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(callbacks, "ALLOW_PRIVATE", True)
    with database.session() as session:
        integration = session.get(Integration, lms.integration_id)
        assert integration is not None
        integration.allowed_hosts = ["127.0.0.1"]
    # Nothing listens on port 9: the callback's first attempt fails and waits for a retry.
    url = "http://127.0.0.1:9/grades"
    response = lms.post(submission(callback_url=url))
    assert response.status_code == 202, response.get_data(as_text=True)
    with database.session() as session:
        origin = session.get(LmsSubmission, response.get_json()["submission_id"])
        assert origin is not None and origin.callback_url == url


# Refused, and nothing recorded.


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"secret": integrations.new_secret()}, "wrong secret"),
        ({"moment": -timedelta(minutes=6)}, "stale"),
        ({"moment": timedelta(minutes=6)}, "future"),
        ({"headers": {"webhook-signature": "v1,AAAA"}}, "bad signature"),
        ({"headers": {"webhook-signature": "nonsense"}}, "unparsable signature"),
        ({"headers": {"webhook-signature": ""}}, "missing signature"),
        ({"headers": {"webhook-id": ""}}, "missing id"),
        ({"headers": {"webhook-timestamp": ""}}, "missing timestamp"),
        ({"headers": {"webhook-timestamp": "1e9"}}, "odd timestamp"),
        ({"headers": {"webhook-timestamp": "9" * 30}}, "huge timestamp"),
        ({"token": ""}, "missing token"),
        ({"token": "gtg_not-a-token"}, "wrong token"),
    ],
)
def test_unauthenticated_webhooks_are_401(
    lms: Lms, counts: Counts, changes: dict[str, Any], why: str
) -> None:
    before = counts()
    if "moment" in changes:
        # From now, not from when the module was collected: a long run would bring a moment
        # six minutes ahead within the five-minute tolerance.
        changes = {**changes, "moment": datetime.now(UTC) + changes["moment"]}
    problem(lms.post(**changes), 401)
    assert counts() == before, why


def test_a_body_changed_after_signing_is_401(lms: Lms, counts: Counts) -> None:
    moment = datetime.now(UTC)
    signed = json.dumps(submission())
    signature = Webhook(lms.secret).sign("msg_x", moment, signed)
    before = counts()
    response = lms.client.post(
        URL,
        data=json.dumps(submission(source=WRONG)),
        headers={
            "Authorization": f"Bearer {lms.token}",
            "webhook-id": "msg_x",
            "webhook-timestamp": str(int(moment.timestamp())),
            "webhook-signature": signature,
        },
    )
    problem(response, 401)
    assert counts() == before


def test_malformed_json_is_400(lms: Lms, counts: Counts) -> None:
    before = counts()
    document = problem(lms.post(body=b'{"exercise": '), 400)
    assert document["type"].endswith("/problems/malformed-json")
    assert counts() == before


@pytest.mark.parametrize(
    "document",
    [
        {"exercise": EXERCISE},
        submission(user={"id": "x"}),
        submission(source=""),
        submission(source="print('a\0b')"),
        submission(surprise=1),
        submission(context_id=None),
        [1, 2],
    ],
)
def test_an_invalid_body_is_422(lms: Lms, counts: Counts, document: Any) -> None:
    before = counts()
    problem(lms.post(body=json.dumps(document).encode()), 422)
    assert counts() == before


def test_an_unknown_exercise_is_404(lms: Lms, counts: Counts) -> None:
    before = counts()
    document = problem(lms.post(submission(exercise="no-such-exercise")), 404)
    assert "no-such-exercise" in document["detail"]
    assert counts() == before


@pytest.mark.parametrize(
    "url",
    [
        "https://evil.example.com/grades",
        "ftp://lms.example.edu/grades",
        "https://user:pw@lms.example.edu/grades",
    ],
)
def test_a_disallowed_callback_url_is_422(lms: Lms, counts: Counts, url: str) -> None:
    before = counts()
    document = problem(lms.post(submission(callback_url=url)), 422)
    assert document["type"].endswith("/problems/callback-refused")
    assert counts() == before


def test_a_private_callback_address_is_422(lms: Lms, database: Database, counts: Counts) -> None:
    with database.session() as session:
        integration = session.get(Integration, lms.integration_id)
        assert integration is not None
        integration.allowed_hosts = ["127.0.0.1"]
    before = counts()
    document = problem(lms.post(submission(callback_url="http://127.0.0.1/grades")), 422)
    assert "loopback" in document["detail"]
    assert counts() == before


def test_an_oversized_source_is_413(lms: Lms, app: Flask, counts: Counts) -> None:
    configured(app, upload_limit_bytes=1024)
    before = counts()
    problem(lms.post(submission(source="# " + "x" * 2000 + "\n")), 413)
    assert counts() == before


def test_an_oversized_body_is_413(lms: Lms, counts: Counts) -> None:
    before = counts()
    document = problem(lms.post(submission(source="#" * 700_000)), 413)
    assert "bytes" in document["detail"]
    assert counts() == before


def test_an_oversized_body_without_length_is_413(lms: Lms, counts: Counts) -> None:
    body = json.dumps(submission(source="#" * 700_000)).encode()
    moment = datetime.now(UTC)
    before = counts()
    response = lms.client.post(
        URL,
        input_stream=io.BytesIO(body),
        # What gunicorn says of a chunked body: read to its end, counting against the limit.
        environ_overrides={"wsgi.input_terminated": True},
        headers={
            "Authorization": f"Bearer {lms.token}",
            "Transfer-Encoding": "chunked",
            "webhook-id": "msg_big",
            "webhook-timestamp": str(int(moment.timestamp())),
            "webhook-signature": Webhook(lms.secret).sign("msg_big", moment, body.decode()),
        },
    )
    problem(response, 413)
    assert counts() == before


def test_the_rate_limit_is_429_with_retry_after(lms: Lms, app: Flask, counts: Counts) -> None:
    configured(app, submission_min_gap_seconds=600)
    started = time.monotonic()
    assert lms.post(message_id="m1").status_code == 202
    before = counts()
    response = lms.post(message_id="m2")
    waited = math.ceil(time.monotonic() - started)
    problem(response, 429)
    # The rest of the gap since the first submission: however long the two requests took.
    assert 600 - waited - 1 <= int(response.headers["Retry-After"]) <= 600
    assert counts() == before
    # The refused key was released: the same key may be sent again later.
    configured(app, submission_min_gap_seconds=0)
    assert lms.post(message_id="m2").status_code == 202


# Secrets and integrations.


def test_a_rotated_secret_is_accepted_within_the_overlap_only(lms: Lms, database: Database) -> None:
    old = lms.secret
    with database.session() as session:
        integration = session.get(Integration, lms.integration_id)
        assert integration is not None
        lms.secret = integrations.rotate_secret(integration).secret or ""
    assert lms.post(message_id="m1", secret=old).status_code == 202
    assert lms.post(submission(source=WRONG), message_id="m2").status_code == 202
    with database.session() as session:
        integration = session.get(Integration, lms.integration_id)
        assert integration is not None
        integration.previous_secret_until = datetime.now(UTC) - timedelta(seconds=1)
    problem(lms.post(message_id="m3", secret=old), 401)
    assert lms.post(message_id="m3").status_code == 202


def test_a_disabled_integration_is_refused(lms: Lms, database: Database, counts: Counts) -> None:
    with database.session() as session:
        integration = session.get(Integration, lms.integration_id)
        assert integration is not None
        integration.enabled = False
    before = counts()
    problem(lms.post(), 403)
    assert counts() == before


# The race on a key: the unique constraint decides when two requests pass the first look.


def test_a_key_used_with_another_body_is_refused_whoever_wrote_it(
    lms: Lms, database: Database
) -> None:
    first = lms.post(message_id="msg_done").get_json()["submission_id"]
    with database.session() as session:
        session.add(
            WebhookReceipt(
                integration_id=lms.integration_id,
                key="msg_other",
                body_hash="a" * 64,
                submission_id=first,
            )
        )
    problem(lms.post(message_id="msg_other"), 422)
    assert count(database, Submission) == 1


def test_an_overlong_webhook_id_is_422(lms: Lms, counts: Counts) -> None:
    before = counts()
    problem(lms.post(message_id="k" * 201), 422)
    assert counts() == before


def test_the_same_webhook_twice_at_once_makes_one_submission(
    lms: Lms, app: Flask, database: Database
) -> None:
    body = json.dumps(submission()).encode()
    barrier = threading.Barrier(4)
    answers: list[tuple[int, Any]] = []

    def send() -> None:
        mine = Lms(app.test_client(), lms.integration_id, lms.secret, lms.token)
        barrier.wait()
        response = mine.post(body=body, message_id="msg_twice")
        answers.append((response.status_code, response.get_json(force=True)))

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # The later ones wait for the first and answer with its submission.
    assert [code for code, _ in answers] == [202] * 4, answers
    assert len({answer["submission_id"] for _, answer in answers}) == 1
    assert count(database, Submission) == 1
    assert count(database, WebhookReceipt) == 1
