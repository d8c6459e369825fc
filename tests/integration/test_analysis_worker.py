"""Games uploaded to the service as it runs (gunicorn as scripts/run.sh starts it, a real
Celery worker on the maintenance queue, PostgreSQL and Redis): the upload answers at once,
the preview shows the analysis's progress, then its result once the worker is done, and no
gunicorn worker is killed for a request that took too long. The whole tic-tac-toe game
(549,946 nodes) is past the public trees' budget: the worker stops expanding it at the
budget and the preview names the problem at its line."""

from __future__ import annotations

import html
import re
import secrets
import sys
import time
from pathlib import Path

import pytest
import requests

from grader.db import Database
from grader.models import Course, Role
from tests.grader.conftest import PASSWORD, add_user
from tests.integration.conftest import Gunicorn, SharedWorkers, Worker

pytestmark = pytest.mark.integration

DEEP_GAME = b"""title: Five moves of the game
algorithm: depth-limited-minimax
conventions: {depth_limit: 2}
trees:
  - name: full
    game: {name: tictactoe, max_depth: 5}
"""
FULL_GAME = b"""title: The whole game
algorithm: minimax
trees:
  - name: full
    game: {name: tictactoe}
"""
TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
ANSWERS_WITHIN = 5.0
"""Seconds a page may take while a worker analyses: on a quiet machine well under one; on
one whose every CPU is taken (the suite beside CPU burners), a few; the analysis of the
whole game takes far longer, so a page that waited for it would fail."""


@pytest.mark.parametrize(
    ("document", "shown"),
    [
        (DEEP_GAME, ["Tree full", "18,730 nodes", "Hidden-tree check", "levels are drawn"]),
        (FULL_GAME, ["exercise.yaml", "more than 50,000 nodes", "set a smaller max_depth"]),
    ],
    ids=["five-moves", "whole-game"],
)
def test_a_game_is_analysed_by_a_worker_while_the_pages_answer_at_once(
    document: bytes,
    shown: list[str],
    tmp_path: Path,
    shared_workers: SharedWorkers,
    gunicorn: Gunicorn,
) -> None:
    settings = shared_workers.settings(tmp_path / "instance")
    settings.instance_dir.mkdir()
    database = Database(settings.database_url)
    with database.session() as session:
        course = Course(title="Analysis", join_code=f"A{secrets.token_hex(4)}")
        session.add(course)
    email = f"analysis-{secrets.token_hex(3)}@example.edu"
    teacher = add_user(database, email, Role.INSTRUCTOR, course)
    base, log = gunicorn(Worker(settings, tmp_path / "unused.log").env())
    browser = requests.Session()
    token = TOKEN.search(browser.get(base + "/login").text)
    assert token
    signed_in = browser.post(
        base + "/login",
        data={"email": teacher.email, "password": PASSWORD, "csrf_token": token.group(1)},
        allow_redirects=False,
    )
    assert signed_in.status_code == 302
    new = f"{base}/teach/courses/{course.id}/exercises/new"
    token = TOKEN.search(browser.get(new).text)
    assert token

    began = time.monotonic()
    uploaded = browser.post(
        new,
        data={"slug": "whole-game", "csrf_token": token.group(1)},
        files={"files": ("exercise.yaml", document)},
        allow_redirects=False,
    )
    took = time.monotonic() - began

    assert uploaded.status_code == 302, uploaded.text
    # "At once": seconds at most on a busy machine, against the analysis's many.
    assert took < ANSWERS_WITHIN, f"the upload took {took:.2f} s"
    preview = base + uploaded.headers["Location"]
    page = browser.get(preview, timeout=5).text
    assert "Analysing this version" in page and "<progress" in page
    stages: list[str] = []
    deadline = time.monotonic() + 240
    status: dict[str, object] = {}
    while time.monotonic() < deadline:
        asked = time.monotonic()
        status = browser.get(preview + "/analysis", timeout=5).json()
        assert time.monotonic() - asked < ANSWERS_WITHIN
        stages.append(str(status["stage"]))
        if status["state"] in ("done", "failed"):
            break
        time.sleep(0.5)
    analysed = time.monotonic() - began
    sys.stderr.write(f"the analysis took {analysed:.1f} s; stages: {stages}\n")
    assert status["state"] == "done", status
    asked = time.monotonic()
    page = html.unescape(browser.get(preview, timeout=5).text)
    assert time.monotonic() - asked < ANSWERS_WITHIN
    for words in shown:
        assert words in page, words
    assert "WORKER TIMEOUT" not in log.read_text(errors="replace")
    database.engine.dispose()
