"""The service on several hosts: the web app and two worker hosts, each with an instance
folder of its own, sharing nothing but PostgreSQL and Redis (here: three folders and their
processes on one machine). An instructor uploads a new exercise through the web app; the
first host's maintenance worker analyses it and its grading worker grades a submission;
then that worker stops and the second host, which has never seen the exercise, grades the
next one: the exercise's files reach each host through the database, and the verdicts are
the same as on one host."""

from __future__ import annotations

import re
import secrets
import time
from pathlib import Path

import pytest
import requests
from sqlalchemy import select

from grader.db import Database
from grader.models import Course, Exercise, GradingRun, Role, RunState
from tests.grader.conftest import PASSWORD, add_user
from tests.integration.conftest import Gunicorn, Worker, service_settings

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "exercises" / "implementations" / "minimax"
TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
EXERCISE = b"""title: Minimax on a tree of its own
algorithm: minimax
conventions: {order: left-to-right}
trees:
  - name: small
    file: small.tree.yaml
"""
TREE = b"""title: A small tree
root: A
nodes:
  A: {kind: MAX, children: {a1: B, a2: C}}
  B: {kind: MIN, children: {b1: B1, b2: B2}}
  B1: 5
  B2: 1
  C: {kind: MIN, children: {c1: C1, c2: C2}}
  C1: 4
  C2: 9
"""


class Browser:
    """A signed-in client of the web app (a session with its CSRF token read off pages)."""

    def __init__(self, base: str, email: str) -> None:
        self.base = base
        self.http = requests.Session()
        signed_in = self.post("/login", "/login", {"email": email, "password": PASSWORD})
        assert signed_in.status_code == 302, signed_in.text

    def post(
        self, page: str, path: str, data: dict[str, str], **kwargs: object
    ) -> requests.Response:
        token = TOKEN.search(self.http.get(self.base + page, timeout=10).text)
        assert token, f"no form on {page}"
        return self.http.post(
            self.base + path,
            data={**data, "csrf_token": token.group(1)},
            allow_redirects=False,
            timeout=30,
            **kwargs,  # type: ignore[arg-type]
        )


def _graded(database: Database, submission_url: str, within: float = 180) -> GradingRun:
    submission_id = int(submission_url.rstrip("/").rsplit("/", 1)[-1])
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with database.session() as session:
            run = session.scalars(
                select(GradingRun).where(GradingRun.submission_id == submission_id)
            ).one()
            if run.state in (RunState.GRADED, RunState.ERROR):
                session.expunge(run)
                return run
        time.sleep(0.3)
    raise AssertionError(f"submission {submission_id} was not graded within {within} s")


def test_two_worker_hosts_grade_a_freshly_uploaded_exercise(
    tmp_path: Path, pg_url: str, own_redis: str, gunicorn: Gunicorn
) -> None:
    web, host_a, host_b = (tmp_path / name for name in ("web", "host-a", "host-b"))
    for folder in (web, host_a, host_b):
        folder.mkdir()
    database = Database(pg_url)
    with database.session() as session:
        course = Course(title="Hosts apart", join_code=f"H{secrets.token_hex(4)}")
        session.add(course)
    teacher = add_user(database, f"t-{secrets.token_hex(3)}@example.edu", Role.INSTRUCTOR, course)
    student = add_user(database, f"s-{secrets.token_hex(3)}@example.edu", Role.STUDENT, course)
    web_env = Worker(service_settings(web, pg_url, own_redis), tmp_path / "w.log").env()
    base, _ = gunicorn({**web_env, "GRADER_SUBMISSION_MIN_GAP_SECONDS": "0"})
    on_a = [
        Worker(service_settings(host_a, pg_url, own_redis), tmp_path / f"a-{queues}.log",
               queues=queues, concurrency=1).start()
        for queues in ("maintenance", "grading")
    ]  # fmt: skip
    on_b: list[Worker] = []
    try:
        instructor = Browser(base, teacher.email)
        new = f"/teach/courses/{course.id}/exercises/new"
        uploaded = instructor.post(
            new, new, {"slug": "own-tree"},
            files=[("files", ("exercise.yaml", EXERCISE)),
                   ("files", ("small.tree.yaml", TREE))],
        )  # fmt: skip
        assert uploaded.status_code == 302, uploaded.text
        preview = uploaded.headers["Location"]
        deadline = time.monotonic() + 180
        while instructor.http.get(base + preview + "/analysis", timeout=10).json()["state"] in (
            "queued",
            "running",
        ):
            assert time.monotonic() < deadline, "the first host did not analyse the exercise"
            time.sleep(0.3)
        published = instructor.post(preview, preview + "/publish", {})
        assert published.status_code == 302
        with database.session() as session:
            exercise = session.scalars(
                select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == "own-tree")
            ).one()
            assert exercise.current_version is not None, "the version was not published"
            exercise_id, content = exercise.id, exercise.current_version.content_hash

        learner = Browser(base, student.email)
        page = f"/exercises/{exercise_id}"

        def submit(name: str) -> str:
            sent = learner.post(
                page, page + "/submissions", {"pasted": ""},
                files={"upload": (name, (LIBRARY / name).read_bytes())},
            )  # fmt: skip
            assert sent.status_code == 302, sent.text
            return str(sent.headers["Location"])

        first = _graded(database, submit("correct_plain.py"))
        assert first.verdict == "passed", first.message
        on_a[1].stop()  # the first host's grading worker goes; the second host's comes
        assert not (host_b / "versions").exists()  # it has never seen the exercise
        on_b.append(
            Worker(service_settings(host_b, pg_url, own_redis), tmp_path / "b-grading.log",
                   queues="grading", concurrency=1).start()
        )  # fmt: skip
        second = _graded(database, submit("wrong_child_searched_twice.py"))
        assert second.verdict == "failed", second.message
        assert first.worker and second.worker and first.worker != second.worker
        # Each host wrote the version's files into its own folder, read from the database.
        for host in (host_a, host_b):
            assert (host / "versions" / content / "own-tree" / "small.tree.yaml").is_file()
        feedback = learner.http.get(base + f"/submissions/{second.submission_id}", timeout=10)
        assert feedback.status_code == 200 and "failed" in feedback.text.lower()
    finally:
        for worker in [*on_a, *on_b]:
            worker.kill()
        database.engine.dispose()
