"""The links the service mails, through the real HTTP stack: gunicorn on a loopback port,
production settings, mail through SMTP to a server the test runs. A reset or a registration
asked with someone else's Host header is refused or mailed on the public URL, never on that
host; and the web app does not start in production without a public URL."""

from __future__ import annotations

import os
import re
import secrets
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from grader.config import PUBLIC_URL_EXAMPLE
from grader.db import Database
from tests.grader.conftest import add_user
from tests.integration.conftest import ROOT, Gunicorn, free_port
from tests.processes import end_with_test
from tests.smtp import Recorder, serving

pytestmark = pytest.mark.integration

PUBLIC = "https://grader.example.edu"
EVIL = "evil.example:8299"
TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


@pytest.fixture
def smtp() -> Iterator[Recorder]:
    with serving() as server:
        yield server


def production(tmp_path: Path, database_url: str, **variables: str) -> dict[str, str]:
    """The environment of the web app in production on this machine."""
    outside = {name: value for name, value in os.environ.items() if not name.startswith("GRADER_")}
    return {
        **outside,
        "PYTHONPATH": str(ROOT),
        "GRADER_ENV": "production",
        "GRADER_SECRET_KEY": secrets.token_hex(32),
        "GRADER_HIDDEN_TREE_KEY": secrets.token_hex(32),
        "GRADER_INSTANCE_DIR": str(tmp_path / "instance"),
        "GRADER_DATABASE_URL": database_url,
        **{f"GRADER_{name}": value for name, value in variables.items()},
    }


def post_form(base: str, path: str, fields: dict[str, str], host: str) -> requests.Response:
    """Fill the form at ``path`` (read from the loopback address) and send it naming
    ``host``. The session cookie is carried by hand: production's cookies are Secure and
    this is plain HTTP, and requests would match them against the Host header."""
    page = requests.get(base + path, timeout=10)
    token = TOKEN.search(page.text)
    assert token, page.text
    cookie = "; ".join(f"{name}={value}" for name, value in page.cookies.items())
    return requests.post(
        base + path,
        data={**fields, "csrf_token": token.group(1)},
        headers={"Host": host, "Cookie": cookie},
        allow_redirects=False,
        timeout=10,
    )


def links_in(smtp: Recorder) -> list[str]:
    return [link for body in smtp.bodies() for link in re.findall(r"\bhttps?://\S+", body)]


@pytest.mark.parametrize(
    ("path", "form"),
    [("/forgot", "reset"), ("/register", "registration")],
    ids=["reset", "registration"],
)
def test_a_link_asked_for_another_host_is_refused_or_on_the_public_url(
    tmp_path: Path, pg_url: str, smtp: Recorder, gunicorn: Gunicorn, path: str, form: str
) -> None:
    email = f"ada-{secrets.token_hex(4)}@example.edu"
    if form == "reset":
        add_user(Database(pg_url), email)
    fields = {"email": email, "name": "Ada", "join_code": ""}
    mail_url = f"smtp://127.0.0.1:{smtp.server_address[1]}"
    base, _log = gunicorn(production(tmp_path, pg_url, PUBLIC_URL=PUBLIC, MAIL_URL=mail_url))

    evil = post_form(base, path, fields, EVIL)
    assert evil.status_code == 400
    assert "not trusted" in evil.text
    assert smtp.received == []

    for host in (base.removeprefix("http://"), "grader.example.edu"):
        assert post_form(base, path, fields, host).status_code == 200
    links = links_in(smtp)
    expected = "/reset/" if form == "reset" else "/register/"
    assert len(links) == 2 and all(link.startswith(PUBLIC + expected) for link in links), links
    assert not any("evil" in body or "127.0.0.1" in body for body in smtp.bodies())
    # The link works on the public host (here reached through loopback).
    opened = requests.get(
        base + links[0].removeprefix(PUBLIC), headers={"Host": "grader.example.edu"}, timeout=10
    )
    assert opened.status_code == 200 and "Choose a" in opened.text


def test_the_web_app_does_not_start_in_production_without_a_public_url(
    tmp_path: Path, pg_url: str, gunicorn: Gunicorn
) -> None:
    port = free_port()
    command = [
        sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "2",
        "grader.wsgi:app",
    ]  # fmt: skip
    refused = subprocess.Popen(
        command, cwd=ROOT, env=production(tmp_path, pg_url), stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, start_new_session=True, preexec_fn=end_with_test,
    )  # fmt: skip
    try:
        output, _ = refused.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(refused.pid, signal.SIGKILL)
        refused.wait(10)
        pytest.fail("gunicorn kept serving in production without a public URL")

    assert refused.returncode != 0
    assert "GRADER_PUBLIC_URL is not set" in output
    assert PUBLIC_URL_EXAMPLE in output
    base, _log = gunicorn(production(tmp_path, pg_url, PUBLIC_URL=PUBLIC))
    assert requests.get(base + "/login", timeout=10).status_code == 200
