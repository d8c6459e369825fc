"""A callback URL that answered 410 Gone: disabled for the integration, webhooks naming it
refused with a problem (nothing made), enabled again by an instructor on the delivery
page; and what the callback carries back (the LMS's user id, context and webhook-id)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from grader.db import Database
from grader.lms import callbacks, integrations
from grader.models import CallbackEndpoint, Course, Delivery, DeliveryState, Integration, Role
from tests.grader.conftest import UserFactory, csrf_token
from tests.grader.lms import Lms, counter, problem, submission
from tests.grader.lms.test_callbacks import Receiver
from tests.grader.lms.test_delivery_log import login


@pytest.fixture(autouse=True)
def loopback_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(callbacks, "ALLOW_PRIVATE", True)


@pytest.fixture
def lms(client: FlaskClient, database: Database, course: Course) -> Lms:
    """An LMS whose integration may call back to loopback."""
    with database.session() as session:
        made = integrations.create(
            session, session.get(Course, course.id), "Moodle", ["127.0.0.1"], None
        )
    assert made.secret and made.token
    return Lms(client, made.integration.id, made.secret, made.token)


@pytest.fixture
def receiver(lms: Lms) -> Iterator[Receiver]:
    found = Receiver(lms.secret).start()
    yield found
    found.stop()


def deliveries(database: Database) -> list[Delivery]:
    with database.session() as session:
        found = list(session.scalars(select(Delivery).order_by(Delivery.id)))
        session.expunge_all()
        return found


def test_a_410_refuses_later_webhooks_until_an_instructor_enables_the_url_again(
    lms: Lms,
    receiver: Receiver,
    database: Database,
    course: Course,
    make_user: UserFactory,
) -> None:
    receiver.default = (410, {})
    first = lms.post(submission(callback_url=receiver.url()), message_id="msg_a")
    assert first.status_code == 202, first.get_data(as_text=True)
    (gone,) = deliveries(database)
    assert gone.state == DeliveryState.FAILED and len(receiver.got) == 1

    # Turning the integration off and on again does not clear the endpoint.
    with database.session() as session:
        session.get(Integration, lms.integration_id).enabled = False  # type: ignore[union-attr]
    with database.session() as session:
        session.get(Integration, lms.integration_id).enabled = True  # type: ignore[union-attr]

    counts = counter(database)
    before = counts()
    refused = problem(lms.post(submission(callback_url=receiver.url()), message_id="msg_b"), 409)
    assert refused["type"].endswith("/problems/callback-disabled")
    assert refused["title"] == "Callback URL disabled"
    assert f"{receiver.url()} is disabled since " in refused["detail"]
    assert "410 Gone" in refused["detail"] and "enable it again" in refused["detail"]
    assert counts() == before and len(deliveries(database)) == 1
    assert len(receiver.got) == 1

    # The instructor reads why on the delivery's page and enables the URL again.
    client = lms.client
    login(client, make_user(Role.INSTRUCTOR, course=course))
    page = client.get(f"/teach/integrations/{lms.integration_id}").get_data(as_text=True)
    assert "Callback URLs disabled after a 410 Gone" in page and receiver.url() in page
    assert f'href="/teach/deliveries/{gone.id}"' in page
    page = client.get(f"/teach/deliveries/{gone.id}").get_data(as_text=True)
    assert "This callback URL is disabled since" in page
    assert "410 Gone" in page and "Enable this callback URL again" in page
    enable = f"/teach/deliveries/{gone.id}/endpoint/enable"
    assert client.post(enable).status_code == 400  # no CSRF token
    response = client.post(enable, data={"csrf_token": csrf_token(client)})
    assert response.status_code == 302
    page = client.get(f"/teach/deliveries/{gone.id}").get_data(as_text=True)
    assert "Enable this callback URL again" not in page and "was enabled again" in page
    page = client.get(f"/teach/integrations/{lms.integration_id}").get_data(as_text=True)
    assert "Callback URLs disabled" not in page
    with database.session() as session:
        endpoint = session.scalars(select(CallbackEndpoint)).one()
        assert endpoint.disabled_at is None and endpoint.enabled_again_at is not None

    receiver.default = (200, {})
    accepted = lms.post(submission(callback_url=receiver.url()), message_id="msg_c")
    assert accepted.status_code == 202, accepted.get_data(as_text=True)
    assert [d.state for d in deliveries(database)] == [DeliveryState.FAILED, "delivered"]
    assert len(receiver.got) == 2 and receiver.got[1].verified


def test_only_the_courses_instructors_enable_a_url_again(
    lms: Lms,
    receiver: Receiver,
    database: Database,
    course: Course,
    make_user: UserFactory,
) -> None:
    receiver.default = (410, {})
    lms.post(submission(callback_url=receiver.url()), message_id="msg_a")
    (gone,) = deliveries(database)
    client = lms.client
    elsewhere = Course(title="Elsewhere", join_code="ELSE")
    with database.session() as session:
        session.add(elsewhere)
    for outsider in (make_user(Role.STUDENT, course=course), make_user(Role.INSTRUCTOR)):
        login(client, outsider)
        response = client.post(
            f"/teach/deliveries/{gone.id}/endpoint/enable",
            data={"csrf_token": csrf_token(client)},
        )
        assert response.status_code in (403, 404)
    with database.session() as session:
        assert session.scalars(select(CallbackEndpoint)).one().disabled_at is not None


def test_the_callback_carries_the_lms_user_context_and_webhook_id(
    lms: Lms, receiver: Receiver
) -> None:
    document = submission(callback_url=receiver.url())
    answer = lms.post(document, message_id="msg_from_the_lms")
    assert answer.status_code == 202, answer.get_data(as_text=True)
    (got,) = receiver.got
    assert got.verified, got.problem
    data = got.payload["data"]
    assert data["submission_id"] == answer.get_json()["submission_id"]
    assert data["user_id"] == document["user"]["id"] == "lms-user-7"
    assert data["context_id"] == "course-42"
    assert data["webhook_id"] == "msg_from_the_lms"
    assert got.headers["webhook-id"] != "msg_from_the_lms"  # the event's own id
