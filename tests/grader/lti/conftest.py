"""Fixtures of the LTI tests: the simulated platform, registered with the app, and the
browser's way through the OIDC login to a launch."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from grader.db import Database
from grader.lti.keys import generate_key
from grader.models import ExternalIdentity, LtiPlatform, User
from tests.grader.lti.platform import Platform


@pytest.fixture
def platform() -> Iterator[Platform]:
    found = Platform().start()
    yield found
    found.stop()


def register(database: Database, platform: Platform) -> int:
    """The platform's row, as an admin's registration makes it (with the tool's key)."""
    private_pem, key_id = generate_key()
    with database.session() as session:
        row = LtiPlatform(
            name="Simulated LMS",
            issuer=platform.issuer,
            client_id=platform.client_id,
            deployment_ids=[platform.deployment_id],
            auth_login_url=platform.auth_login_url,
            auth_token_url=platform.token_url,
            key_set_url=platform.jwks_url,
            tool_private_key=private_pem,
            tool_key_id=key_id,
        )
        session.add(row)
        session.flush()
        return row.id


@pytest.fixture
def registered(database: Database, platform: Platform, client: FlaskClient) -> int:
    """The platform registered, and trusting the tool's key set as the app serves it."""
    platform_id = register(database, platform)
    platform.tool_jwks = client.get("/lti/jwks").get_json()
    return platform_id


@dataclass
class Login:
    """What the tool's OIDC login sent the browser to the platform with."""

    response: TestResponse
    params: dict[str, str]

    @property
    def state(self) -> str:
        return self.params["state"]

    @property
    def nonce(self) -> str:
        return self.params["nonce"]


def start_login(client: FlaskClient, platform: Platform, **extra: str) -> Login:
    query = {
        "iss": platform.issuer,
        "login_hint": "lms-user-42",
        "target_link_uri": "http://localhost/lti/launch",
        "client_id": platform.client_id,
        "lti_deployment_id": platform.deployment_id,
        **extra,
    }
    response = client.get("/lti/login", query_string=query)
    assert response.status_code == 302, response.get_data(as_text=True)
    location = urlsplit(response.headers["Location"])
    params = {key: values[0] for key, values in parse_qs(location.query).items()}
    return Login(response, params)


def launch(client: FlaskClient, platform: Platform, **changes: Any) -> TestResponse:
    """Login initiation, then the launch with an id_token carrying the login's nonce
    (``changes`` alter its claims; ``key`` signs with another key)."""
    login = start_login(client, platform)
    nonce = changes.pop("nonce", login.nonce)
    token = platform.id_token(nonce, **changes)
    return client.post("/lti/launch", data={"id_token": token, "state": login.state})


def signed_in(client: FlaskClient) -> str | None:
    """The id of the user signed in through ``client``'s session (without the session
    version that follows it)."""
    with client.session_transaction() as session:
        value = session.get("_user_id")
    return value.partition(":")[0] if isinstance(value, str) else None


def people(database: Database) -> tuple[int, int]:
    """How many users and external identities there are."""
    with database.session() as session:
        users = session.scalar(select(func.count()).select_from(User)) or 0
        identities = session.scalar(select(func.count()).select_from(ExternalIdentity)) or 0
        return users, identities
