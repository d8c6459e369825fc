"""Failed sign-ins are throttled per account and per address (``Settings.login_limits``):
once used up, even the right password is refused with 429 and a page saying when to try
again. Only failures count."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import replace

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from grader.config import Settings
from grader.db import Database
from grader.web import create_app
from grader.web.limits import limiter
from tests.grader.conftest import PASSWORD, UserFactory, csrf_token

REDIS_URL = "redis://127.0.0.1:6379/13"
"""A database of the test Redis of these tests' own (its limits are reset around them)."""


def sign_in(client: FlaskClient, email: str, password: str, address: str = "127.0.0.1") -> int:
    response = client.post(
        "/login",
        data={"email": email, "password": password, "csrf_token": csrf_token(client)},
        environ_base={"REMOTE_ADDR": address},
    )
    return response.status_code


def test_after_five_wrong_passwords_even_the_right_one_is_refused_for_a_while(
    client: FlaskClient, make_user: UserFactory
) -> None:
    student = make_user()
    for _ in range(5):
        assert sign_in(client, student.email, "wrong password") == 200

    response = client.post(
        "/login",
        data={"email": student.email, "password": PASSWORD, "csrf_token": csrf_token(client)},
    )

    assert response.status_code == 429
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    page = response.get_data(as_text=True)
    assert "Too many sign-in attempts; try again in 1 minute." in page
    assert "Traceback" not in page
    assert client.get("/").status_code == 302  # not signed in


def test_the_account_is_throttled_from_every_address(app: Flask, make_user: UserFactory) -> None:
    student = make_user()
    for number in range(5):
        assert sign_in(app.test_client(), student.email, "guess", f"10.0.0.{number}") == 200

    assert sign_in(app.test_client(), student.email, PASSWORD, "10.0.1.1") == 429


def test_an_address_is_throttled_whatever_account_it_tries(
    client: FlaskClient, make_user: UserFactory
) -> None:
    for _ in range(5):
        assert sign_in(client, make_user().email, "guess") == 200

    assert sign_in(client, make_user().email, PASSWORD) == 429
    assert sign_in(client, make_user().email, PASSWORD, "10.9.9.9") == 302  # elsewhere


def test_only_failures_count(client: FlaskClient, make_user: UserFactory) -> None:
    student = make_user()
    for _ in range(12):
        assert sign_in(client, student.email, PASSWORD) == 302
        assert client.post("/logout", data={"csrf_token": csrf_token(client)}).status_code == 302
    for _ in range(4):
        assert sign_in(client, student.email, "one typo") == 200
    assert sign_in(client, student.email, PASSWORD) == 302  # 4 failures: still allowed
    assert sign_in(client, student.email, "one typo more") == 200
    assert sign_in(client, student.email, PASSWORD) == 429  # the fifth used them up


def test_the_limits_come_from_the_settings(
    settings: Settings, database: Database, make_user: UserFactory
) -> None:
    app = create_app(replace(settings, login_limits="2 per hour"), database)
    client = app.test_client()
    student = make_user()
    assert sign_in(client, student.email, "guess") == 200
    assert sign_in(client, student.email, "guess") == 200

    response = client.post(
        "/login",
        data={"email": student.email, "password": PASSWORD, "csrf_token": csrf_token(client)},
    )
    assert response.status_code == 429
    assert 60 < int(response.headers["Retry-After"]) <= 3600
    assert "try again in 60 minutes" in response.get_data(as_text=True)


@pytest.fixture
def redis_app(settings: Settings, database: Database) -> Iterator[Flask]:
    try:
        redis.Redis.from_url(REDIS_URL).ping()
    except redis.RedisError:
        pytest.skip("no test Redis on 127.0.0.1:6379")
    app = create_app(replace(settings, redis_url=REDIS_URL), database)
    limiter.reset()
    yield app
    limiter.reset()


def test_with_redis_the_failures_are_counted_in_redis_for_every_web_process(
    redis_app: Flask, make_user: UserFactory
) -> None:
    student = make_user()
    client = redis_app.test_client()
    address = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.7"
    for _ in range(5):
        assert sign_in(client, student.email, "guess", address) == 200

    keys = [key.decode() for key in redis.Redis.from_url(REDIS_URL).keys("*sign-in-account*")]
    assert any(student.email in key for key in keys), keys
    assert sign_in(client, student.email, PASSWORD, address) == 429
