"""Failed sign-ins are throttled so that guessing is slow and nobody can lock other people
out by failing on purpose: per account (``Settings.login_limits``), past which even the
right password gets 429 and a page saying when to try again; per client address for
failures that name no account, past which failures are answered 429 but a right password
still signs in; and per client address for every failure (``login_address_limits``), far
higher. Only failures count, and the client's address is the connection's unless
``proxy_hops`` says which X-Forwarded-For hop to believe."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from dataclasses import replace

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from grader.config import Settings
from grader.db import Database
from grader.services.mail import Outbox
from grader.web import create_app
from grader.web.limits import limiter
from tests.grader.conftest import PASSWORD, UserFactory, csrf_token
from tests.redis_databases import DEFAULT_REDIS

REDIS_URL = os.environ.get("GRADER_TEST_REDIS_URL") or DEFAULT_REDIS
"""The test Redis (its limits are reset around the test that uses it)."""


def sign_in(
    client: FlaskClient,
    email: str,
    password: str,
    address: str = "127.0.0.1",
    forwarded_for: str | None = None,
) -> int:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    response = client.post(
        "/login",
        data={"email": email, "password": password, "csrf_token": csrf_token(client)},
        environ_base={"REMOTE_ADDR": address},
        headers=headers,
    )
    return response.status_code


def made_up() -> str:
    """An address no account has."""
    return f"nobody-{secrets.token_hex(4)}@example.edu"


def app_with(settings: Settings, database: Database, **changes: object) -> Flask:
    return create_app(replace(settings, **changes), database)


# -- per account --


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


def test_an_address_without_an_account_is_throttled_the_same_so_429_tells_nothing(
    app: Flask,
) -> None:
    nobody = made_up()
    for number in range(5):
        assert sign_in(app.test_client(), nobody, "guess", f"10.0.0.{number}") == 200

    assert sign_in(app.test_client(), nobody, "guess", "10.0.1.1") == 429


def test_guessing_one_account_stops_there_while_others_at_the_same_address_sign_in(
    client: FlaskClient, make_user: UserFactory
) -> None:
    target, classmate = make_user(), make_user()
    for _ in range(5):
        assert sign_in(client, target.email, "guess") == 200

    assert sign_in(client, target.email, "guess") == 429
    assert sign_in(client, target.email, PASSWORD) == 429
    assert sign_in(client, classmate.email, PASSWORD) == 302


# -- per address, failures naming no account --


@pytest.mark.slow
def test_made_up_addresses_from_one_network_lock_none_of_its_people_out(
    app: Flask, make_user: UserFactory
) -> None:
    student = make_user()
    stranger = app.test_client()
    statuses = [sign_in(stranger, made_up(), "guess") for _ in range(14)]

    assert statuses == [200] * 5 + [429] * 9
    assert sign_in(app.test_client(), student.email, PASSWORD) == 302


def test_past_that_budget_failures_are_refused_alike_for_accounts_and_made_up_addresses(
    app: Flask, make_user: UserFactory
) -> None:
    student = make_user()
    client = app.test_client()
    for _ in range(5):
        sign_in(client, made_up(), "guess")

    wrong = client.post(
        "/login",
        data={"email": student.email, "password": "typo", "csrf_token": csrf_token(client)},
    )
    assert wrong.status_code == 429
    assert sign_in(client, made_up(), "guess") == 429
    page = wrong.get_data(as_text=True)
    assert "Too many failed sign-ins" in page and "the right ones still sign you in" in page
    assert sign_in(client, student.email, PASSWORD) == 302


def test_an_address_is_counted_apart_from_the_others(app: Flask, make_user: UserFactory) -> None:
    for _ in range(6):
        sign_in(app.test_client(), made_up(), "guess", "10.1.1.1")

    assert sign_in(app.test_client(), made_up(), "guess", "10.1.1.1") == 429
    assert sign_in(app.test_client(), made_up(), "guess", "10.9.9.9") == 200


# -- per address, every failure --


def test_many_failures_on_real_accounts_from_one_address_stop_every_sign_in_there(
    settings: Settings, database: Database, make_user: UserFactory
) -> None:
    app = app_with(settings, database, login_address_limits="8 per hour")
    for _ in range(4):
        account = make_user()
        assert sign_in(app.test_client(), account.email, "guess one") == 200
        assert sign_in(app.test_client(), account.email, "guess two") == 200
    student = make_user()

    assert sign_in(app.test_client(), student.email, PASSWORD) == 429
    assert sign_in(app.test_client(), student.email, PASSWORD, "10.9.9.9") == 302


@pytest.mark.slow
def test_made_up_addresses_past_their_budget_do_not_count_towards_it(
    settings: Settings, database: Database, make_user: UserFactory
) -> None:
    app = app_with(settings, database, login_address_limits="8 per hour")
    for _ in range(30):
        sign_in(app.test_client(), made_up(), "guess")

    assert sign_in(app.test_client(), make_user().email, PASSWORD) == 302


# -- what counts, and where the limits come from --


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
    app = app_with(settings, database, login_limits="2 per hour")
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
    environment = {"GRADER_LOGIN_ADDRESS_LIMITS": "100 per hour"}
    assert Settings.from_env(environment).login_address_limits == "100 per hour"
    assert Settings().login_address_limits == "300 per hour"


# -- the client's address --


def test_behind_a_proxy_two_clients_are_told_apart_by_x_forwarded_for(
    settings: Settings, database: Database
) -> None:
    app = app_with(settings, database, proxy_hops=1)
    for _ in range(6):
        sign_in(app.test_client(), made_up(), "guess", forwarded_for="198.51.100.1")

    assert sign_in(app.test_client(), made_up(), "guess", forwarded_for="198.51.100.1") == 429
    assert sign_in(app.test_client(), made_up(), "guess", forwarded_for="198.51.100.2") == 200


def test_without_proxy_hops_a_forged_x_forwarded_for_changes_nothing(app: Flask) -> None:
    statuses = [
        sign_in(app.test_client(), made_up(), "guess", forwarded_for=f"198.51.100.{number}")
        for number in range(7)
    ]

    assert statuses == [200] * 5 + [429] * 2


# -- the storage --


@pytest.fixture
def redis_app(settings: Settings, database: Database) -> Iterator[Flask]:
    try:
        redis.Redis.from_url(REDIS_URL).ping()
    except redis.RedisError:
        pytest.skip(f"no test Redis at {REDIS_URL}")
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

    keys = [key.decode() for key in redis.Redis.from_url(REDIS_URL).keys("*sign-in*")]
    assert any(student.email in key for key in keys), keys
    assert sign_in(client, student.email, PASSWORD, address) == 429


# -- forms that mail a message --


def ask_reset(client: FlaskClient, email: str, address: str = "127.0.0.1") -> int:
    response = client.post(
        "/forgot",
        data={"email": email, "csrf_token": csrf_token(client)},
        environ_base={"REMOTE_ADDR": address},
    )
    return response.status_code


def test_resets_asked_for_many_addresses_from_one_nat_leave_a_classmate_s_alone(
    app: Flask, make_user: UserFactory
) -> None:
    # Twenty made-up addresses from the campus NAT, four times the per-address sign-in
    # limit: the classmate behind the same NAT still gets their reset.
    for _ in range(20):
        assert ask_reset(app.test_client(), made_up()) in (200, 302)
    classmate = make_user()
    outbox = app.extensions["grader.mail"] = Outbox()

    assert ask_reset(app.test_client(), classmate.email) in (200, 302)
    assert [message.to for message in outbox.messages] == [classmate.email]


def test_one_mailbox_gets_no_more_messages_than_the_sign_in_limits(
    app: Flask, make_user: UserFactory
) -> None:
    target = make_user()
    # From five addresses: the limit is the recipient's, wherever the requests come from.
    for number in range(5):
        assert ask_reset(app.test_client(), target.email.upper(), f"10.1.0.{number}") in (200, 302)

    assert ask_reset(app.test_client(), target.email, "10.1.0.9") == 429
    assert ask_reset(app.test_client(), make_user().email, "10.1.0.9") in (200, 302)


def test_one_address_asking_far_more_than_a_class_is_stopped(
    settings: Settings, database: Database
) -> None:
    app = app_with(settings, database, login_address_limits="8 per hour")
    for _ in range(8):
        assert ask_reset(app.test_client(), made_up()) in (200, 302)

    assert ask_reset(app.test_client(), made_up()) == 429
    assert ask_reset(app.test_client(), made_up(), "10.2.0.1") in (200, 302)
