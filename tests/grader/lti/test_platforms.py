"""The admins' platform registration (with its own CSRF check) and the tool's JWKS."""

from __future__ import annotations

import re

import jwt
from flask.testing import FlaskClient
from jwt.algorithms import RSAAlgorithm
from sqlalchemy import select

from grader.db import Database
from grader.lti.urls import url_problem
from grader.models import LtiPlatform, Role, User
from tests.grader.conftest import UserFactory
from tests.grader.lti.conftest import launch
from tests.grader.lti.platform import Platform

_TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def login(client: FlaskClient, user: User) -> None:
    """Signed in as ``user`` (straight into the session: these tests are about LTI, and the
    sign-in form needs the ``email_validator`` package, which is not installed)."""
    with client.session_transaction() as session:
        session["_user_id"] = user.get_id()
        session["_fresh"] = True


def form_token(client: FlaskClient, path: str) -> str:
    page = client.get(path)
    assert page.status_code == 200, page.get_data(as_text=True)
    match = _TOKEN.search(page.get_data(as_text=True))
    assert match, f"no CSRF token on {path}"
    return match.group(1)


def details(platform: Platform, **changes: str) -> dict[str, str]:
    return {
        "name": "Simulated LMS",
        "issuer": platform.issuer,
        "client_id": platform.client_id,
        "deployment_ids": f"{platform.deployment_id}, deployment-2\ndeployment-3",
        "auth_login_url": platform.auth_login_url,
        "auth_token_url": platform.token_url,
        "key_set_url": platform.jwks_url,
        **changes,
    }


def platforms(database: Database) -> list[LtiPlatform]:
    with database.session() as session:
        return list(session.scalars(select(LtiPlatform)))


def test_an_admin_registers_a_platform_and_is_shown_the_tool_s_urls(
    client: FlaskClient, database: Database, make_user: UserFactory, platform: Platform
) -> None:
    login(client, make_user(Role.ADMIN))
    form = {**details(platform), "csrf_token": form_token(client, "/lti/platforms")}

    response = client.post("/lti/platforms", data=form)

    assert response.status_code == 302, response.get_data(as_text=True)
    (row,) = platforms(database)
    assert response.headers["Location"] == f"/lti/platforms/{row.id}"
    assert row.deployment_ids == ["deployment-1", "deployment-2", "deployment-3"]
    assert row.tool_private_key.startswith("-----BEGIN PRIVATE KEY-----")
    assert row.tool_key_id
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    for url in ("/lti/login", "/lti/launch", "/lti/jwks"):
        assert f"http://localhost{url}" in page
    assert row.tool_key_id in page and "BEGIN PUBLIC KEY" in page
    assert "PRIVATE" not in page


def test_the_registration_form_needs_its_csrf_token(
    client: FlaskClient, database: Database, make_user: UserFactory, platform: Platform
) -> None:
    login(client, make_user(Role.ADMIN))

    response = client.post("/lti/platforms", data=details(platform))

    assert response.status_code == 200
    assert platforms(database) == []


def test_plain_http_endpoints_are_refused_except_on_loopback(
    client: FlaskClient, database: Database, make_user: UserFactory, platform: Platform
) -> None:
    login(client, make_user(Role.ADMIN))
    form = {
        **details(platform, key_set_url="http://lms.example.edu/jwks"),
        "csrf_token": form_token(client, "/lti/platforms"),
    }

    response = client.post("/lti/platforms", data=form)

    assert response.status_code == 200
    assert "must use HTTPS" in response.get_data(as_text=True)
    assert platforms(database) == []
    assert url_problem("https://lms.example.edu/jwks") is None
    assert url_problem("http://127.0.0.1:8080/jwks") is None
    assert url_problem("ftp://lms.example.edu/") is not None


def test_the_same_issuer_and_client_id_are_registered_once(
    client: FlaskClient, database: Database, make_user: UserFactory, platform: Platform
) -> None:
    login(client, make_user(Role.ADMIN))
    for _ in range(2):
        form = {**details(platform), "csrf_token": form_token(client, "/lti/platforms")}
        client.post("/lti/platforms", data=form)

    assert len(platforms(database)) == 1


def test_only_admins_see_the_platforms(
    client: FlaskClient, make_user: UserFactory, platform: Platform
) -> None:
    assert client.get("/lti/platforms").status_code == 302  # to the sign-in page
    login(client, make_user(Role.INSTRUCTOR))
    assert client.get("/lti/platforms").status_code == 403


def test_an_admin_removes_a_platform_with_a_csrf_token(
    client: FlaskClient, database: Database, make_user: UserFactory, platform: Platform
) -> None:
    login(client, make_user(Role.ADMIN))
    form = {**details(platform), "csrf_token": form_token(client, "/lti/platforms")}
    location = client.post("/lti/platforms", data=form).headers["Location"]

    assert client.post(f"{location}/delete").status_code == 400
    assert len(platforms(database)) == 1
    token = form_token(client, location)
    assert client.post(f"{location}/delete", data={"csrf_token": token}).status_code == 302
    assert platforms(database) == []


def test_the_jwks_serves_each_platform_s_tool_key_by_its_id(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    keys = client.get("/lti/jwks").get_json()["keys"]

    (row,) = platforms(database)
    (key,) = keys
    assert (key["kid"], key["alg"], key["use"], key["kty"]) == (
        row.tool_key_id,
        "RS256",
        "sig",
        "RSA",
    )
    assert "d" not in key and "p" not in key  # the public half only
    signed = jwt.encode({"sub": "x"}, row.tool_private_key, algorithm="RS256")
    public = RSAAlgorithm.from_jwk(key)
    assert jwt.decode(signed, public, algorithms=["RS256"]) == {"sub": "x"}  # type: ignore[arg-type]


def test_the_registered_platform_s_launch_works_after_registration_through_the_page(
    client: FlaskClient, database: Database, make_user: UserFactory, platform: Platform
) -> None:
    login(client, make_user(Role.ADMIN))
    form = {**details(platform), "csrf_token": form_token(client, "/lti/platforms")}
    assert client.post("/lti/platforms", data=form).status_code == 302
    with client.session_transaction() as session:
        session.clear()

    response = launch(client, platform)
    assert response.status_code == 302, response.get_data(as_text=True)
    assert response.headers["Location"].startswith("/exercises/")
