"""Sessions end on the server's word: a cookie copied before signing out, or before a
password reset or a role change, opens nothing afterwards; and a session lasts
``Settings.session_hours`` without use."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient

from grader.config import Settings
from grader.db import Database
from grader.models import Role, User
from grader.services.identities import bump_sessions
from grader.web import create_app
from tests.grader.conftest import UserFactory, csrf_token, login

SESSION_COOKIE = "session"


def copy_of_session(client: FlaskClient) -> str:
    cookie = client.get_cookie(SESSION_COOKIE)
    assert cookie is not None
    return cookie.value


def replay(app: Flask, cookie: str, path: str) -> int:
    """The status of ``path`` for another browser holding a copy of ``cookie``."""
    thief = app.test_client()
    thief.set_cookie(SESSION_COOKIE, cookie)
    return thief.get(path).status_code


def test_a_session_copied_before_sign_out_no_longer_opens_the_teaching_pages(
    app: Flask, client: FlaskClient, make_user: UserFactory
) -> None:
    teacher = make_user(Role.INSTRUCTOR)
    login(client, teacher)
    stolen = copy_of_session(client)
    assert replay(app, stolen, "/teach/") == 200  # the copy works while the session lives

    assert client.post("/logout", data={"csrf_token": csrf_token(client)}).status_code == 302

    assert replay(app, stolen, "/teach/") == 302  # to the sign-in page
    assert client.get("/teach/").status_code == 302


def test_signing_out_ends_the_sessions_of_other_browsers_too(
    app: Flask, make_user: UserFactory
) -> None:
    student = make_user()
    laptop, phone = app.test_client(), app.test_client()
    login(laptop, student)
    login(phone, student)

    laptop.post("/logout", data={"csrf_token": csrf_token(laptop)})

    assert phone.get("/").status_code == 302


def test_a_changed_role_ends_the_sessions_made_before(
    app: Flask, client: FlaskClient, database: Database, make_user: UserFactory
) -> None:
    teacher = make_user(Role.INSTRUCTOR)
    login(client, teacher)
    with database.session() as session:
        found = session.get(User, teacher.id)
        assert found is not None
        found.role = Role.STUDENT
        bump_sessions(found)

    assert client.get("/teach/").status_code == 302
    login(client, teacher)  # signing in again works, with the new role
    assert client.get("/").status_code == 200


def test_a_session_id_without_its_version_is_refused(
    client: FlaskClient, make_user: UserFactory
) -> None:
    student = make_user()
    with client.session_transaction() as session:
        session["_user_id"] = str(student.id)  # what sessions held before versions
    assert client.get("/").status_code == 302
    with client.session_transaction() as session:
        session["_user_id"] = student.get_id()
    assert client.get("/").status_code == 200


def test_sessions_are_permanent_and_last_the_configured_hours_without_use(
    settings: Settings, database: Database, make_user: UserFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(replace(settings, session_hours=3), database)
    client = app.test_client()
    assert app.config["PERMANENT_SESSION_LIFETIME"] == timedelta(hours=3)
    login(client, make_user())

    cookie = next(
        header
        for header in client.get("/").headers.getlist("Set-Cookie")
        if header.startswith(SESSION_COOKIE + "=")
    )  # refreshed on use
    expires = parsedate_to_datetime(cookie.split("Expires=")[1].split(";")[0])
    left = expires - datetime.now(UTC)
    assert timedelta(hours=2, minutes=58) < left <= timedelta(hours=3, minutes=1)

    kept = copy_of_session(client)
    assert replay(app, kept, "/") == 200
    later = time.time() + 3 * 3600 + 60
    monkeypatch.setattr(time, "time", lambda: later)
    assert replay(app, kept, "/") == 302  # the cookie's signature is too old now
