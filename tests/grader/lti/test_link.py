"""A launch whose asserted email belongs to a local account: the account is linked only
when its owner enters its password; declining keeps a separate account; nothing is taken
over by an address alone."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from grader.db import Database
from grader.models import ExternalIdentity, User
from grader.services.mail import Outbox
from tests.grader.conftest import PASSWORD, add_user, csrf_token
from tests.grader.lti.conftest import launch, people, signed_in
from tests.grader.lti.platform import INSTRUCTOR, Platform

ASSERTED = "ada@lms.example.edu"
"""The email the simulated platform asserts for its user."""


def answer(client: FlaskClient, **fields: str) -> tuple[int, str, str]:
    response = client.post("/lti/link", data={"csrf_token": csrf_token(client), **fields})
    return response.status_code, response.headers.get("Location", ""), response.get_data(True)


def identity_owner(database: Database) -> int | None:
    with database.session() as session:
        identity = session.scalars(select(ExternalIdentity)).one_or_none()
        return identity.user_id if identity is not None else None


def test_a_launch_naming_a_local_account_s_email_asks_before_linking(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    local = add_user(database, ASSERTED.upper())

    response = launch(client, platform)

    assert response.status_code == 302 and response.headers["Location"] == "/lti/link"
    assert signed_in(client) is None
    assert people(database) == (1, 0)  # nothing made, nothing linked yet
    page = client.get("/lti/link").get_data(as_text=True)
    assert "Link your account?" in page and ASSERTED in page
    with database.session() as session:
        kept = session.get(User, local.id)
        assert kept is not None and kept.lms_email is None and kept.password_hash


def test_the_right_password_links_the_identity_to_the_local_account(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    local = add_user(database, ASSERTED)
    launch(client, platform)

    wrong = answer(client, password="not it", link="Link my account")
    assert wrong[0] == 200 and "Wrong password" in wrong[2]
    assert identity_owner(database) is None and signed_in(client) is None

    status, location, _ = answer(client, password=PASSWORD, link="Link my account")

    assert status == 302 and location.startswith("/exercises/")
    assert signed_in(client) == str(local.id)
    assert identity_owner(database) == local.id
    assert people(database) == (1, 1)
    # The next launch signs in to the local account straight away.
    other = client.application.test_client()
    again = launch(other, platform)
    assert again.headers["Location"].startswith("/exercises/")
    assert signed_in(other) == str(local.id)


def test_declining_keeps_a_separate_account_with_a_placeholder_address(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    local = add_user(database, ASSERTED)
    launch(client, platform)

    status, location, _ = answer(client, separate="Keep them separate")

    assert status == 302 and location.startswith("/exercises/")
    owner = identity_owner(database)
    assert owner is not None and owner != local.id
    assert signed_in(client) == str(owner)
    with database.session() as session:
        separate = session.get(User, owner)
        assert separate is not None
        assert separate.email.endswith("@lti.invalid") and separate.lms_email == ASSERTED
        assert separate.password_hash is None
    # Not asked again: the platform's user is known now.
    assert launch(client.application.test_client(), platform).status_code == 302
    assert people(database) == (2, 1)


def test_an_address_an_lms_asserted_first_can_still_be_registered_by_its_owner(
    app: Flask, database: Database, platform: Platform, registered: int
) -> None:
    assert launch(app.test_client(), platform).status_code == 302  # no local account yet
    outbox = app.extensions["grader.mail"] = Outbox()

    owner = app.test_client()
    form = {"name": "Ada", "email": ASSERTED, "join_code": "", "csrf_token": csrf_token(owner)}
    assert owner.post("/register", data=form).status_code == 200
    (message,) = outbox.to(ASSERTED)
    path = re.search(r"http://localhost(/register/\S+)", message.body)
    assert path, message.body  # a confirmation link, not "you already have an account"
    password = {"password": "her own password", "confirm": "her own password"}
    made = owner.post(path.group(1), data={**password, "csrf_token": csrf_token(owner)})

    assert made.status_code == 302
    with database.session() as session:
        local = session.scalars(select(User).where(User.email == ASSERTED)).one()
    assert signed_in(owner) == str(local.id)
    assert identity_owner(database) != local.id


def test_wrong_passwords_on_the_link_page_count_against_the_account(
    app: Flask, client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    add_user(database, ASSERTED)
    launch(client, platform)
    for _ in range(5):
        assert answer(client, password="guess", link="Link my account")[0] == 200

    assert answer(client, password=PASSWORD, link="Link my account")[0] == 429
    elsewhere = app.test_client()
    form = {"email": ASSERTED, "password": PASSWORD, "csrf_token": csrf_token(elsewhere)}
    assert elsewhere.post("/login", data=form).status_code == 429
    assert identity_owner(database) is None


def test_an_account_without_a_password_is_not_offered(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    with database.session() as session:
        session.add(User(email=ASSERTED, name="Made by an old LMS", password_hash=None))

    response = launch(client, platform)

    assert response.headers["Location"].startswith("/exercises/")
    with database.session() as session:
        made = session.scalars(select(User).where(User.lms_email == ASSERTED)).one()
        assert made.email.endswith("@lti.invalid")


def test_a_link_page_without_a_pending_launch_says_so(client: FlaskClient) -> None:
    response = client.get("/lti/link")

    assert response.status_code == 400
    assert "open the link in your course again" in response.get_data(as_text=True)


def test_becoming_an_instructor_ends_the_sessions_made_as_a_student(
    app: Flask, client: FlaskClient, platform: Platform, registered: int
) -> None:
    assert launch(client, platform).status_code == 302
    cookie = client.get_cookie("session")
    assert cookie is not None

    teacher = app.test_client()
    assert launch(teacher, platform, roles=[INSTRUCTOR]).status_code == 302

    copy = app.test_client()
    copy.set_cookie("session", cookie.value)
    assert copy.get("/").status_code == 302
    assert teacher.get("/teach/").status_code == 200
