"""A launch's id_token works once across every web process: the used nonce is a row in
``lti_nonces``, which a second process sees (here a separate Python process with its own
app and database engine over the same database)."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.lti import state
from grader.models import utcnow
from grader.models.accounts import LtiNonce
from tests.grader.lti.conftest import people, start_login
from tests.grader.lti.platform import Platform

PROJECT = Path(__file__).resolve().parents[3]
OTHER_PROCESS = """
import json, sys
from pathlib import Path
from grader.config import Settings
from grader.web import create_app

given = json.loads(sys.argv[1])
app = create_app(Settings(env="development", instance_dir=Path(given["instance"])))
client = app.test_client()
for name, value in given["cookies"].items():
    client.set_cookie(name, value)
response = client.post("/lti/launch", data=given["form"])
print(json.dumps({"status": response.status_code, "page": response.get_data(as_text=True)}))
"""


def launch_elsewhere(settings: Settings, form: dict[str, str], cookies: dict[str, str]) -> dict:
    given = {"instance": str(settings.instance_dir), "form": form, "cookies": cookies}
    done = subprocess.run(
        [sys.executable, "-c", OTHER_PROCESS, json.dumps(given)],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_a_launch_replayed_to_another_web_process_is_refused(
    client: FlaskClient,
    settings: Settings,
    database: Database,
    platform: Platform,
    registered: int,
) -> None:
    login = start_login(client, platform)
    cookies = {}
    for name in (f"lti1p3-{login.state}", f"lti1p3-nonce-{login.nonce}"):
        cookie = client.get_cookie(name)
        assert cookie is not None
        cookies[name] = cookie.value
    form = {"id_token": platform.id_token(login.nonce), "state": login.state}
    assert client.post("/lti/launch", data=form).status_code == 302

    replayed = launch_elsewhere(settings, form, cookies)

    assert replayed["status"] == 403, replayed["page"][-600:]
    assert "Invalid Nonce" in replayed["page"]
    assert people(database) == (1, 1)


@pytest.mark.slow
def test_the_first_launch_in_another_process_is_accepted(
    client: FlaskClient,
    settings: Settings,
    database: Database,
    platform: Platform,
    registered: int,
) -> None:
    """The same path as above, without the first launch: the other process is able to
    launch, so the refusal above is the nonce's doing."""
    login = start_login(client, platform)
    cookies = {
        name: client.get_cookie(name).value  # type: ignore[union-attr]
        for name in (f"lti1p3-{login.state}", f"lti1p3-nonce-{login.nonce}")
    }
    form = {"id_token": platform.id_token(login.nonce), "state": login.state}

    assert launch_elsewhere(settings, form, cookies)["status"] == 302
    assert client.post("/lti/launch", data=form).status_code == 403


def test_spending_a_nonce_removes_the_expired_ones(database: Database) -> None:
    with database.session() as session:
        session.add(LtiNonce(nonce="old", expires_at=utcnow() - timedelta(seconds=1)))
    with database.session() as session:
        assert state.spend(session, "fresh") is True
        assert state.spend(session, "fresh") is False
        kept = session.scalars(select(LtiNonce.nonce)).all()
    assert kept == ["fresh"]


def test_on_postgresql_one_of_many_processes_spending_a_nonce_at_once_wins(pg_url: str) -> None:
    """Separate engines (as separate gunicorn workers have) spend the same nonce at once."""
    engines = [Database(pg_url) for _ in range(6)]
    nonce = f"pg-{secrets.token_hex(8)}"
    barrier = threading.Barrier(len(engines))
    results: list[bool] = []

    def spend(database: Database) -> None:
        with database.session() as session:
            barrier.wait(timeout=30)
            results.append(state.spend(session, nonce))

    threads = [threading.Thread(target=spend, args=(engine,)) for engine in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    for engine in engines:
        engine.engine.dispose()

    assert sorted(results) == [False] * 5 + [True]
