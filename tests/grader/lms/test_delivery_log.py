"""The delivery log pages: a course's deliveries and their attempts for its instructors and
admins only, and sending a delivery again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient

from grader.config import Settings
from grader.db import Database
from grader.lms import callbacks
from grader.models import Course, Delivery, DeliveryState, Integration, Role, User
from tests.grader.conftest import UserFactory, csrf_token
from tests.grader.lms.test_callbacks import (
    Receiver,
    deliveries_of,
    graded,
    make_integration,
    new_secret,
    try_when_due,
)


def login(client: FlaskClient, user: User) -> None:
    """Signed in as ``user`` (Flask-Login's session keys): the sign-in form needs the
    email-validator package, which the locked dependencies lack."""
    with client.session_transaction() as session:
        session["_user_id"] = user.get_id()
        session["_fresh"] = True


@pytest.fixture(autouse=True)
def loopback_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(callbacks, "ALLOW_PRIVATE", True)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver(new_secret()).start()
    yield found
    found.stop()


@pytest.fixture
def delivery(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
) -> Delivery:
    """A callback that failed twice (500, 503) and is waiting for its third try."""
    receiver.answers = [(500, {}), (503, {})]
    integration_id = make_integration(database, course, receiver.secret)
    submission_id, _ = graded(database, settings, course, make_user, integration_id, receiver.url())
    (found,) = deliveries_of(database, submission_id)
    try_when_due(database, found.id)
    (found,) = deliveries_of(database, submission_id)
    return found


def test_an_instructor_sees_the_course_deliveries_and_their_attempts(
    client: FlaskClient, course: Course, make_user: UserFactory, delivery: Delivery
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course=course))

    page = client.get(f"/teach/deliveries/courses/{course.id}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Deliveries of Search 101" in text
    for shown in ("submission.graded", f"#{delivery.submission_id}", delivery.url, "pending"):
        assert shown in text
    assert "HTTP 503" in text and f"/teach/deliveries/{delivery.id}" in text

    page = client.get(f"/teach/deliveries/courses/{course.id}?state=delivered")
    assert "No deliveries in state delivered yet." in page.get_data(as_text=True)

    page = client.get(f"/teach/deliveries/{delivery.id}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert text.count('<tr class="attempt">') == 2
    assert "500" in text and "503" in text and " ms</td>" in text
    assert delivery.message_id in text
    assert "Send again" in text

    index = client.get("/teach/deliveries/").get_data(as_text=True)
    assert f"/teach/deliveries/courses/{course.id}" in index


def test_students_and_other_instructors_are_kept_out(
    client: FlaskClient,
    database: Database,
    course: Course,
    make_user: UserFactory,
    delivery: Delivery,
) -> None:
    pages = [f"/teach/deliveries/courses/{course.id}", f"/teach/deliveries/{delivery.id}"]
    replay = f"/teach/deliveries/{delivery.id}/replay"

    assert client.get(pages[0]).status_code == 302  # to the sign-in page

    login(client, make_user(Role.STUDENT, course=course))
    for page in pages:
        assert client.get(page).status_code == 403
    assert client.post(replay, data={"csrf_token": csrf_token(client)}).status_code == 403

    with database.session() as session:
        other = Course(title="Other course", join_code="OTHER")
        session.add(other)
    login(client, make_user(Role.INSTRUCTOR, course=other))
    for page in pages:
        assert client.get(page).status_code == 404
    assert client.post(replay, data={"csrf_token": csrf_token(client)}).status_code == 404
    assert f"/teach/deliveries/courses/{course.id}" not in client.get(
        "/teach/deliveries/"
    ).get_data(as_text=True)
    assert client.get("/teach/deliveries/courses/999999").status_code == 404
    assert client.get("/teach/deliveries/999999").status_code == 404

    login(client, make_user(Role.ADMIN))
    for page in pages:
        assert client.get(page).status_code == 200
    (same,) = deliveries_of(database, delivery.submission_id or 0)
    assert same.attempts == 2  # nobody sent it again


def test_replay_sends_a_given_up_delivery_again(
    client: FlaskClient,
    database: Database,
    course: Course,
    make_user: UserFactory,
    receiver: Receiver,
    delivery: Delivery,
) -> None:
    # The integration's hosts changed: the next try gives up; the instructor fixes them.
    with database.session() as session:
        integration = session.get(Integration, delivery.integration_id)
        assert integration is not None
        integration.allowed_hosts = ["lms.example.edu"]
    try_when_due(database, delivery.id)
    (failed,) = deliveries_of(database, delivery.submission_id or 0)
    assert failed.state == DeliveryState.FAILED
    with database.session() as session:
        integration = session.get(Integration, delivery.integration_id)
        assert integration is not None
        integration.allowed_hosts = ["127.0.0.1"]

    login(client, make_user(Role.INSTRUCTOR, course=course))
    replay = f"/teach/deliveries/{delivery.id}/replay"
    assert client.post(replay).status_code == 400  # no CSRF token
    response = client.post(replay, data={"csrf_token": csrf_token(client)})
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/teach/deliveries/{delivery.id}")

    (sent,) = deliveries_of(database, delivery.submission_id or 0)
    assert (sent.state, sent.attempts) == (DeliveryState.DELIVERED, 4)
    assert [row.status_code for row in sent.log] == [500, 503, None, 200]
    assert [got.verified for got in receiver.got] == [True] * 3
    assert {got.headers["webhook-id"] for got in receiver.got} == {delivery.message_id}
    page = client.get(f"/teach/deliveries/{delivery.id}").get_data(as_text=True)
    assert "is being sent again" in page and "delivered" in page
