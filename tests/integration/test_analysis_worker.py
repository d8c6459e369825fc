"""The whole tic-tac-toe game uploaded to the service as it runs (gunicorn as scripts/run.sh
starts it, a real Celery worker on the maintenance queue, PostgreSQL and Redis): the upload
answers at once, the preview shows the analysis's progress, then its result once the
worker is done, and no gunicorn worker is killed for a request that took too long."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import requests

from grader.db import Database
from grader.models import Course, Role
from tests.grader.conftest import PASSWORD, add_user
from tests.integration.conftest import Worker, service_settings

pytestmark = pytest.mark.integration

FULL_GAME = b"""title: The whole game
algorithm: minimax
trees:
  - name: full
    game: {name: tictactoe}
"""
TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def test_the_whole_game_is_analysed_by_a_worker_while_the_pages_answer_at_once(
    tmp_path: Path,
    pg_url: str,
    flushed_redis: str,
    workers: Callable[..., Worker],
    gunicorn: Callable[[dict[str, str]], tuple[str, Path]],
) -> None:
    settings = service_settings(tmp_path / "instance", pg_url, flushed_redis)
    settings.instance_dir.mkdir()
    database = Database(pg_url)
    with database.session() as session:
        course = Course(title="Analysis", join_code="ANALYSIS")
        session.add(course)
    teacher = add_user(database, "analysis-teacher@example.edu", Role.INSTRUCTOR, course)
    workers(settings, queues="maintenance", concurrency=1)
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
        files={"files": ("exercise.yaml", FULL_GAME)},
        allow_redirects=False,
    )
    took = time.monotonic() - began

    assert uploaded.status_code == 302, uploaded.text
    assert took < 1.0, f"the upload took {took:.2f} s"
    preview = base + uploaded.headers["Location"]
    page = browser.get(preview, timeout=5).text
    assert "Analysing this version" in page and "<progress" in page
    stages: list[str] = []
    deadline = time.monotonic() + 240
    status: dict[str, object] = {}
    while time.monotonic() < deadline:
        asked = time.monotonic()
        status = browser.get(preview + "/analysis", timeout=5).json()
        assert time.monotonic() - asked < 1.0
        stages.append(str(status["stage"]))
        if status["state"] in ("done", "failed"):
            break
        time.sleep(0.5)
    analysed = time.monotonic() - began
    sys.stderr.write(f"the analysis of the whole game took {analysed:.1f} s; stages: {stages}\n")
    assert status["state"] == "done", status
    assert any(re.match(r"expanding tree full: [\d,]+ nodes", stage) for stage in stages)
    asked = time.monotonic()
    page = browser.get(preview, timeout=5).text
    assert time.monotonic() - asked < 1.0
    assert "Tree full" in page and "549,946 nodes" in page and "Hidden-tree check" in page
    assert "only its first 3 levels are drawn" in page
    assert "WORKER TIMEOUT" not in log.read_text(errors="replace")
    database.engine.dispose()
