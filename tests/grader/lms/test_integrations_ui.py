"""The integrations' pages: who may see them, the secret and token shown once, rotation,
disabling, hosts; every change needs the form's CSRF token."""

from __future__ import annotations

import base64
import re
from datetime import UTC, datetime, timedelta

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from grader.db import Database
from grader.lms.integrations import token_hash
from grader.models import Course, Integration, Role, User
from tests.grader.conftest import UserFactory, csrf_token, login
from tests.grader.lms import Lms, problem

SECRET = re.compile(r"<code data-secret>(whsec_[A-Za-z0-9+/=]+)</code>")
TOKEN = re.compile(r"<code data-token>(gtg_[A-Za-z0-9_-]+)</code>")


def create(client: FlaskClient, course: Course, name: str = "Moodle", hosts: str = "") -> str:
    response = client.post(
        "/teach/integrations/",
        data={
            "course": str(course.id),
            "name": name,
            "allowed_hosts": hosts or "lms.example.edu\n*.uni.example.edu",
            "csrf_token": csrf_token(client),
        },
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "no-store"
    return response.get_data(as_text=True)


def only(database: Database) -> Integration:
    with database.session() as session:
        found = session.scalars(select(Integration)).all()
        assert len(found) == 1
        return found[0]


@pytest.fixture
def instructor(client: FlaskClient, make_user: UserFactory, course: Course) -> User:
    user = make_user(Role.INSTRUCTOR, course)
    login(client, user)
    return user


def test_an_instructor_makes_an_integration_and_sees_its_secrets_once(
    client: FlaskClient, instructor: User, course: Course, database: Database
) -> None:
    page = create(client, course)
    secret = SECRET.search(page)
    token = TOKEN.search(page)
    assert secret and token
    integration = only(database)
    assert (integration.name, integration.course_id, integration.enabled) == (
        "Moodle",
        course.id,
        True,
    )
    assert integration.allowed_hosts == ["lms.example.edu", "*.uni.example.edu"]
    assert integration.secret == secret.group(1)
    assert integration.token_hash == token_hash(token.group(1))
    assert token.group(1) not in str(integration.__dict__)
    # Standard Webhooks: whsec_ and base64 of 24 to 64 random bytes.
    assert 24 <= len(base64.b64decode(secret.group(1).removeprefix("whsec_"))) <= 64
    # Never again: not on the list, not on the integration's page.
    for url in ("/teach/integrations/", f"/teach/integrations/{integration.id}"):
        later = client.get(url)
        assert later.status_code == 200
        text = later.get_data(as_text=True)
        assert "Moodle" in text
        assert secret.group(1) not in text and token.group(1) not in text


def test_the_credentials_shown_work_with_the_api(
    client: FlaskClient, instructor: User, course: Course, database: Database
) -> None:
    page = create(client, course)
    secret, token = SECRET.search(page), TOKEN.search(page)
    assert secret and token
    lms = Lms(client, only(database).id, secret.group(1), token.group(1))
    assert lms.post().status_code == 202


def test_creating_needs_the_csrf_token(
    client: FlaskClient, instructor: User, course: Course, database: Database
) -> None:
    response = client.post(
        "/teach/integrations/", data={"course": str(course.id), "name": "Moodle"}
    )
    assert response.status_code == 400
    with database.session() as session:
        assert session.scalars(select(Integration)).all() == []


def test_bad_hosts_are_refused_with_the_form(
    client: FlaskClient, instructor: User, course: Course, database: Database
) -> None:
    response = client.post(
        "/teach/integrations/",
        data={
            "course": str(course.id),
            "name": "Moodle",
            "allowed_hosts": "https://lms.example.edu/path",
            "csrf_token": csrf_token(client),
        },
    )
    assert response.status_code == 400
    assert "is not a host name" in response.get_data(as_text=True)
    with database.session() as session:
        assert session.scalars(select(Integration)).all() == []


def test_rotation_shows_the_new_secret_and_keeps_the_old_for_the_overlap(
    client: FlaskClient, instructor: User, course: Course, database: Database
) -> None:
    first = SECRET.search(create(client, course))
    assert first
    integration = only(database)
    response = client.post(
        f"/teach/integrations/{integration.id}/rotate",
        data={"overlap_hours": "24", "csrf_token": csrf_token(client)},
    )
    assert response.status_code == 200
    second = SECRET.search(response.get_data(as_text=True))
    assert second and second.group(1) != first.group(1)
    assert TOKEN.search(response.get_data(as_text=True)) is None
    rotated = only(database)
    assert (rotated.secret, rotated.previous_secret) == (second.group(1), first.group(1))
    assert rotated.previous_secret_until is not None
    until = rotated.previous_secret_until.replace(tzinfo=UTC)
    expected = datetime.now(UTC) + timedelta(hours=24)
    assert abs((until - expected).total_seconds()) < 60
    page = client.get(f"/teach/integrations/{integration.id}").get_data(as_text=True)
    assert "previous secret is still accepted until" in page
    assert second.group(1) not in page


def test_a_new_token_replaces_the_old(
    client: FlaskClient, instructor: User, course: Course, database: Database
) -> None:
    old = TOKEN.search(create(client, course))
    assert old
    integration = only(database)
    response = client.post(
        f"/teach/integrations/{integration.id}/token", data={"csrf_token": csrf_token(client)}
    )
    new = TOKEN.search(response.get_data(as_text=True))
    assert new and new.group(1) != old.group(1)
    assert only(database).token_hash == token_hash(new.group(1))
    problem(
        client.get("/api/v1/exercises", headers={"Authorization": f"Bearer {old.group(1)}"}), 401
    )


def test_disable_and_enable(
    client: FlaskClient, instructor: User, course: Course, database: Database
) -> None:
    token = TOKEN.search(create(client, course))
    assert token
    integration = only(database)
    headers = {"Authorization": f"Bearer {token.group(1)}"}
    response = client.post(
        f"/teach/integrations/{integration.id}/disable", data={"csrf_token": csrf_token(client)}
    )
    assert response.status_code == 302
    assert only(database).enabled is False
    problem(client.get("/api/v1/exercises", headers=headers), 403)
    client.post(
        f"/teach/integrations/{integration.id}/enable", data={"csrf_token": csrf_token(client)}
    )
    assert only(database).enabled is True
    assert client.get("/api/v1/exercises", headers=headers).status_code == 200


def test_the_allowed_hosts_can_be_changed(
    client: FlaskClient, instructor: User, course: Course, database: Database
) -> None:
    create(client, course)
    integration = only(database)
    response = client.post(
        f"/teach/integrations/{integration.id}/hosts",
        data={
            "allowed_hosts": "canvas.example.edu, LMS.example.edu.",
            "csrf_token": csrf_token(client),
        },
    )
    assert response.status_code == 302
    assert only(database).allowed_hosts == ["canvas.example.edu", "lms.example.edu"]


# Who may.


def test_students_get_403(
    client: FlaskClient, make_user: UserFactory, course: Course, database: Database
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    login(client, teacher)
    create(client, course)
    integration = only(database)
    client.post("/logout", data={"csrf_token": csrf_token(client)})
    login(client, make_user(Role.STUDENT, course))
    assert client.get("/teach/integrations/").status_code == 403
    assert client.get(f"/teach/integrations/{integration.id}").status_code == 403
    response = client.post(
        "/teach/integrations/",
        data={"course": str(course.id), "name": "Mine", "csrf_token": csrf_token(client)},
    )
    assert response.status_code == 403


def test_an_instructor_of_another_course_gets_404(
    client: FlaskClient, make_user: UserFactory, course: Course, database: Database
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    create(client, course)
    integration = only(database)
    client.post("/logout", data={"csrf_token": csrf_token(client)})
    with database.session() as session:
        elsewhere = Course(title="Elsewhere", join_code="ELSE")
        session.add(elsewhere)
    login(client, make_user(Role.INSTRUCTOR, elsewhere))
    listing = client.get("/teach/integrations/").get_data(as_text=True)
    assert "Moodle" not in listing
    assert client.get(f"/teach/integrations/{integration.id}").status_code == 404
    response = client.post(
        f"/teach/integrations/{integration.id}/rotate",
        data={"overlap_hours": "24", "csrf_token": csrf_token(client)},
    )
    assert response.status_code == 404
    # Nor may they make one for a course they do not teach.
    response = client.post(
        "/teach/integrations/",
        data={"course": str(course.id), "name": "Sneaky", "csrf_token": csrf_token(client)},
    )
    assert response.status_code == 400
    assert (
        len(
            client.application.extensions["grader.db"].sessions().scalars(select(Integration)).all()
        )
        == 1
    )


def test_an_admin_sees_and_manages_every_integration(
    client: FlaskClient, make_user: UserFactory, course: Course, database: Database
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    create(client, course)
    integration = only(database)
    client.post("/logout", data={"csrf_token": csrf_token(client)})
    login(client, make_user(Role.ADMIN))
    assert "Moodle" in client.get("/teach/integrations/").get_data(as_text=True)
    response = client.post(
        f"/teach/integrations/{integration.id}/disable", data={"csrf_token": csrf_token(client)}
    )
    assert response.status_code == 302
    assert only(database).enabled is False


def test_signed_out_visitors_are_sent_to_sign_in(client: FlaskClient) -> None:
    response = client.get("/teach/integrations/")
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]
