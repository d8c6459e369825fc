"""Absolute links (mail, the API's problem types, the LTI tool's URLs) start with the public
URL, whatever Host the request named; a Host that is not trusted is refused before any
message is sent. Only development without a public URL follows the request's host."""

from __future__ import annotations

from dataclasses import replace

import pytest
from flask import Flask
from flask.testing import FlaskClient

from grader.config import Settings
from grader.db import Database
from grader.services.mail import Outbox
from grader.web import create_app
from grader.web.lti import tool_urls
from tests.grader.conftest import UserFactory

PUBLIC = "https://grader.example.edu"
EVIL = "evil.example:8299"


def app_with(settings: Settings, database: Database, **changes: object) -> Flask:
    """The app with ``changes``, its mail kept in an outbox, without CSRF tokens: the test
    client keeps cookies per host, and these tests ask for several."""
    app = create_app(replace(settings, **changes), database)
    app.extensions["grader.mail"] = Outbox()
    app.config["WTF_CSRF_ENABLED"] = False
    return app


@pytest.fixture
def public_app(settings: Settings, database: Database) -> Flask:
    return app_with(settings, database, public_url=PUBLIC)


def outbox(app: Flask) -> Outbox:
    found: Outbox = app.extensions["grader.mail"]
    return found


def ask_reset(client: FlaskClient, email: str, host: str) -> int:
    return client.post("/forgot", data={"email": email}, headers={"Host": host}).status_code


def ask_account(client: FlaskClient, email: str, host: str) -> int:
    data = {"name": "Ada", "email": email, "join_code": ""}
    return client.post("/register", data=data, headers={"Host": host}).status_code


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost", "grader.example.edu"])
def test_mailed_links_are_on_the_public_url_whatever_trusted_host_was_asked(
    public_app: Flask, make_user: UserFactory, host: str
) -> None:
    student = make_user()
    client = public_app.test_client()

    assert ask_reset(client, student.email, host) == 200
    assert ask_account(client, "newcomer@example.edu", host) == 200
    assert ask_account(client, student.email, host) == 200  # "you have an account already"

    reset, confirm, reminder = outbox(public_app).messages
    assert f"{PUBLIC}/reset/" in reset.body
    assert f"{PUBLIC}/register/" in confirm.body
    assert f"{PUBLIC}/login" in reminder.body and f"{PUBLIC}/forgot" in reminder.body
    for message in (reset, confirm, reminder):
        assert "127.0.0.1" not in message.body and "localhost" not in message.body


def test_a_request_for_an_untrusted_host_is_refused_and_mails_nothing(
    public_app: Flask, make_user: UserFactory
) -> None:
    student = make_user()
    client = public_app.test_client()

    assert ask_reset(client, student.email, EVIL) == 400
    assert ask_account(client, "newcomer@example.edu", EVIL) == 400
    refused = client.post("/forgot", data={"email": student.email}, headers={"Host": EVIL})

    assert "not trusted" in refused.get_data(as_text=True)
    assert outbox(public_app).messages == []


def test_the_apis_and_the_lti_tools_urls_are_on_the_public_url(public_app: Flask) -> None:
    problem = public_app.test_client().get(
        "/api/v1/no-such-thing", headers={"Host": "127.0.0.1:8000"}
    )
    with public_app.test_request_context("/", headers={"Host": "127.0.0.1:8000"}):
        urls = tool_urls()

    assert problem.get_json()["type"].startswith(f"{PUBLIC}/api/v1/problems/")
    assert sorted(urls.values()) == [
        f"{PUBLIC}/lti/jwks",
        f"{PUBLIC}/lti/launch",
        f"{PUBLIC}/lti/login",
    ]


def test_development_without_a_public_url_links_to_the_requests_host(
    settings: Settings, database: Database, make_user: UserFactory
) -> None:
    app = app_with(settings, database)
    student = make_user()

    assert ask_reset(app.test_client(), student.email, "laptop.local:5000") == 200

    (message,) = outbox(app).messages
    assert "http://laptop.local:5000/reset/" in message.body


def test_development_with_trusted_hosts_refuses_the_others(
    settings: Settings, database: Database, make_user: UserFactory
) -> None:
    app = app_with(settings, database, trusted_hosts=("grader.example.edu",))
    student = make_user()

    assert ask_reset(app.test_client(), student.email, EVIL) == 400
    assert ask_reset(app.test_client(), student.email, "grader.example.edu") == 200

    (message,) = outbox(app).messages
    assert "http://grader.example.edu/reset/" in message.body
