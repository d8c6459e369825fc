"""Creating an account tells nothing about which addresses have one; a password is reset
through a signed link that expires and works once, and ends every session."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from grader.db import Database
from grader.models import User
from grader.services import identities
from grader.services.mail import Message, Outbox
from tests.grader.conftest import PASSWORD, UserFactory, csrf_token, login

NEW_PASSWORD = "a brand new passphrase"


@pytest.fixture
def outbox(app: Flask) -> Outbox:
    found = app.extensions["grader.mail"] = Outbox()
    return found


def link_in(message: Message) -> str:
    """The path of the link in ``message``."""
    found = re.search(r"https?://[^/\s]+(/\S+)", message.body)
    assert found, message.body
    return found.group(1)


def register(client: FlaskClient, email: str, name: str = "Ada") -> tuple[int, str]:
    response = client.post(
        "/register",
        data={"name": name, "email": email, "join_code": "", "csrf_token": csrf_token(client)},
    )
    return response.status_code, response.get_data(as_text=True)


def choose(client: FlaskClient, path: str, password: str = NEW_PASSWORD) -> int:
    data = {"password": password, "confirm": password, "csrf_token": csrf_token(client)}
    return client.post(path, data=data).status_code


def users(database: Database) -> int:
    with database.session() as session:
        return session.scalar(select(func.count()).select_from(User)) or 0


def test_registering_a_taken_address_looks_exactly_like_registering_a_new_one(
    app: Flask, outbox: Outbox, make_user: UserFactory, database: Database
) -> None:
    existing = make_user()
    before = users(database)

    taken = register(app.test_client(), existing.email.upper())
    new = register(app.test_client(), "nobody-yet@example.edu")

    assert taken[0] == new[0] == 200
    normalise = re.compile(r"csrf_token[^>]*>|[\w.+-]+@[\w.-]+")
    assert normalise.sub("", taken[1]) == normalise.sub("", new[1])
    assert "exists" not in taken[1]
    assert users(database) == before  # nothing made before the link is opened
    (reminder,) = outbox.to(existing.email)
    assert "already have an account" in reminder.body and "/forgot" in reminder.body
    (confirmation,) = outbox.to("nobody-yet@example.edu")
    assert "/register/" in confirmation.body


def test_the_confirmation_link_makes_the_account_once(
    app: Flask, client: FlaskClient, outbox: Outbox, database: Database
) -> None:
    assert register(client, " Grace@Example.EDU ", name="Grace Hopper")[0] == 200
    (message,) = outbox.to("grace@example.edu")
    path = link_in(message)

    assert choose(client, path) == 302
    assert client.get("/").status_code == 200  # signed in
    with database.session() as session:
        grace = session.scalars(select(User).where(User.email == "grace@example.edu")).one()
        assert grace.name == "Grace Hopper"

    again = app.test_client().get(path)
    assert again.status_code == 302 and again.headers["Location"] == "/login"
    assert choose(app.test_client(), path, "another password 2") == 302
    assert users(database) == 1
    other = app.test_client()
    response = other.post(
        "/login",
        data={
            "email": "GRACE@example.edu",
            "password": NEW_PASSWORD,
            "csrf_token": csrf_token(other),
        },
    )
    assert response.status_code == 302  # the first password stands; the address in any case


def test_a_forged_confirmation_link_is_refused_with_a_page(client: FlaskClient) -> None:
    response = client.get("/register/not-a-token")

    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "This link is not valid" in page and "Traceback" not in page


def test_the_sign_in_page_offers_a_password_reset(client: FlaskClient) -> None:
    page = client.get("/login").get_data(as_text=True)
    assert 'href="/forgot"' in page


def forgot(client: FlaskClient, email: str) -> tuple[int, str]:
    response = client.post("/forgot", data={"email": email, "csrf_token": csrf_token(client)})
    return response.status_code, response.get_data(as_text=True)


def test_asking_for_a_reset_answers_the_same_for_known_and_unknown_addresses(
    app: Flask, outbox: Outbox, make_user: UserFactory
) -> None:
    student = make_user()

    known = forgot(app.test_client(), student.email)
    unknown = forgot(app.test_client(), "stranger@example.edu")

    assert known[0] == unknown[0] == 200
    drop = re.compile(r"csrf_token[^>]*>|[\w.+-]+@[\w.-]+")
    assert drop.sub("", known[1]) == drop.sub("", unknown[1])
    assert "if an account exists" in known[1].lower()
    assert [message.to for message in outbox.messages] == [student.email]


def test_a_reset_link_sets_a_new_password_once_and_ends_every_session(
    app: Flask, outbox: Outbox, make_user: UserFactory
) -> None:
    student = make_user()
    elsewhere = app.test_client()
    login(elsewhere, student)
    browser = app.test_client()
    forgot(browser, student.email)
    path = link_in(outbox.messages[0])

    assert choose(browser, path) == 302

    assert elsewhere.get("/").status_code == 302  # the old session is over
    assert browser.get(path).status_code == 400  # used: the fingerprint changed
    client = app.test_client()
    old = {"email": student.email, "password": PASSWORD, "csrf_token": csrf_token(client)}
    assert client.post("/login", data=old).status_code == 200
    new = dict(old, password=NEW_PASSWORD)
    assert client.post("/login", data=new).status_code == 302


def test_an_expired_reset_link_is_refused(
    app: Flask, outbox: Outbox, make_user: UserFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    student = make_user()
    client = app.test_client()
    forgot(client, student.email)
    monkeypatch.setattr(identities, "RESET_SECONDS", -1)

    response = client.get(link_in(outbox.messages[0]))

    assert response.status_code == 400
    assert "This link has expired" in response.get_data(as_text=True)


def test_links_in_messages_use_the_public_url_when_set(
    app: Flask, outbox: Outbox, make_user: UserFactory
) -> None:
    settings = app.extensions["grader.settings"]
    app.extensions["grader.settings"] = replace(settings, public_url="https://grader.example")
    student = make_user()

    forgot(app.test_client(), student.email)

    assert "https://grader.example/reset/" in outbox.messages[0].body


def test_an_lms_account_cannot_be_reset_or_signed_in_to(
    app: Flask, outbox: Outbox, database: Database
) -> None:
    with database.session() as session:
        made = identities.lms_user(
            session, namespace="integration:1", subject="s-1", name="Lee", email="lee@uni.edu"
        )
        placeholder = made.email
    forgot(app.test_client(), placeholder)
    forgot(app.test_client(), "lee@uni.edu")
    assert outbox.messages == []
