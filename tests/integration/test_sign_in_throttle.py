"""Sign-in throttling through the real HTTP stack: gunicorn with two workers on a loopback
port, every request from 127.0.0.1 as from behind one campus NAT. Made-up addresses lock
nobody out, guessing one account stops there, a proxy's X-Forwarded-For tells clients
apart only when GRADER_PROXY_HOPS says to believe it, and without Redis the counts hold
across gunicorn's workers."""

from __future__ import annotations

import os
import re
import secrets
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from werkzeug.security import generate_password_hash

from grader.db import Database
from grader.migrate import upgrade
from grader.models import User
from tests.grader.conftest import PASSWORD, add_user
from tests.integration.conftest import ROOT, Gunicorn

pytestmark = pytest.mark.integration

TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
PID_AND_REQUEST = re.compile(r"^<(\d+)> (\S+ \S+)", re.MULTILINE)
ACCESS_LOG = ("--access-logformat", "%(p)s %(r)s %(s)s")
"""Each access log line starts with the worker's pid and the request line."""


def development(tmp_path: Path, **variables: str) -> dict[str, str]:
    """The web app's environment (development: its cookies travel over plain HTTP)."""
    outside = {name: value for name, value in os.environ.items() if not name.startswith("GRADER_")}
    return {
        **outside,
        "PYTHONPATH": str(ROOT),
        "GRADER_ENV": "development",
        "GRADER_INSTANCE_DIR": str(tmp_path / "instance"),
        **{f"GRADER_{name}": value for name, value in variables.items()},
    }


def sign_in(base: str, email: str, password: str, forwarded_for: str = "") -> requests.Response:
    """A browser's sign-in: the form, then its POST (not following the redirect)."""
    browser = requests.Session()
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    token = TOKEN.search(browser.get(base + "/login", headers=headers, timeout=10).text)
    assert token
    form = {"email": email, "password": password, "csrf_token": token.group(1)}
    response = browser.post(
        base + "/login", data=form, headers=headers, allow_redirects=False, timeout=30
    )
    response.browser = browser  # type: ignore[attr-defined]
    return response


def made_up() -> str:
    return f"nobody-{secrets.token_hex(4)}@example.edu"


def signs_in_to_their_page(base: str, user: User) -> None:
    signed_in = sign_in(base, user.email, PASSWORD)
    assert signed_in.status_code == 302, signed_in.text
    page = signed_in.browser.get(base + signed_in.headers["Location"], timeout=10)  # type: ignore[attr-defined]
    assert page.status_code == 200 and user.name in page.text


@pytest.fixture
def served(tmp_path: Path, pg_url: str, flushed_redis: str, gunicorn: Gunicorn) -> str:
    """The service on PostgreSQL and Redis (its limits emptied), as docker-compose runs it."""
    variables = {"DATABASE_URL": pg_url, "REDIS_URL": flushed_redis}
    base, _log = gunicorn(development(tmp_path, **variables))
    return base


def test_made_up_addresses_from_one_network_do_not_lock_its_people_out(
    served: str, pg_url: str
) -> None:
    student = add_user(Database(pg_url), f"student-{secrets.token_hex(4)}@example.edu")

    statuses = [sign_in(served, made_up(), "guess").status_code for _ in range(14)]

    assert statuses == [200] * 5 + [429] * 9
    signs_in_to_their_page(served, student)


def test_guessing_one_account_is_stopped_there_while_another_signs_in_from_the_same_address(
    served: str, pg_url: str
) -> None:
    database = Database(pg_url)
    target = add_user(database, f"target-{secrets.token_hex(4)}@example.edu")
    classmate = add_user(database, f"classmate-{secrets.token_hex(4)}@example.edu")

    guesses = [sign_in(served, target.email, f"guess {n}").status_code for n in range(8)]

    assert guesses == [200] * 5 + [429] * 3
    assert sign_in(served, target.email, PASSWORD).status_code == 429
    signs_in_to_their_page(served, classmate)


def test_behind_one_proxy_clients_are_told_apart_by_x_forwarded_for(
    tmp_path: Path, pg_url: str, flushed_redis: str, gunicorn: Gunicorn
) -> None:
    variables = {"DATABASE_URL": pg_url, "REDIS_URL": flushed_redis, "PROXY_HOPS": "1"}
    base, _log = gunicorn(development(tmp_path, **variables))

    sprayer = [sign_in(base, made_up(), "guess", "198.51.100.1").status_code for _ in range(6)]
    neighbour = sign_in(base, made_up(), "guess", "198.51.100.2").status_code

    assert sprayer == [200] * 5 + [429]
    assert neighbour == 200


def test_without_proxy_hops_a_forged_x_forwarded_for_changes_nothing(served: str) -> None:
    statuses = [
        sign_in(served, made_up(), "guess", f"198.51.100.{n}").status_code for n in range(7)
    ]

    assert statuses == [200] * 5 + [429] * 2


def test_without_redis_the_count_of_an_account_holds_across_gunicorns_workers(
    tmp_path: Path, gunicorn: Gunicorn
) -> None:
    instance = tmp_path / "instance"
    instance.mkdir()
    upgrade(f"sqlite:///{instance / 'grader.db'}")
    database = Database(f"sqlite:///{instance / 'grader.db'}")
    student = add_user(database, "ada@example.edu")
    # A real password hash takes a moment to check: failures sent together keep both
    # workers busy, so that each of them takes some.
    with database.session() as session:
        stored = session.get(User, student.id)
        assert stored is not None
        stored.password_hash = generate_password_hash(PASSWORD)
    base, log = gunicorn(development(tmp_path), *ACCESS_LOG)

    with ThreadPoolExecutor(5) as pool:
        failures = list(pool.map(lambda n: sign_in(base, student.email, f"guess {n}"), range(5)))

    assert [response.status_code for response in failures] == [200] * 5
    served_by = {pid for pid, line in PID_AND_REQUEST.findall(log.read_text()) if "POST" in line}
    assert len(served_by) == 2, f"the failures did not reach both workers: {served_by}"
    assert sign_in(base, student.email, PASSWORD).status_code == 429
