"""Load on the whole service: simulated students submitting over HTTP to gunicorn, with a
Celery worker, Redis and PostgreSQL on this machine.

Two phases, then the baseline, all in one run:
- burst: every student submits at once, ``--burst`` submissions in all; graded submissions
  per second from the first submission to the last feedback (target: at least 50); run
  ``--bursts`` times in a row, the median reported;
- steady: submissions arriving at ``--rate`` per second for ``--seconds``; the
  submit-to-feedback latency, p50 and p95 (target: p95 under 1 s at 20 per second);
- baseline: the same gradings done directly by the grading function in one process, as
  ``grader grade`` does, one after the other.

Latency runs from the moment the student's POST starts to the run's ``finished_at``.
Usage: .venv/bin/python bench/load.py [--students 20] [--burst 200] [--bursts 3] [--rate 20]
       [--seconds 15]
Needs PostgreSQL and Redis (GRADER_TEST_DATABASE_URL / GRADER_TEST_REDIS_URL, else local).
"""

from __future__ import annotations

import argparse
import html
import http.cookiejar
import os
import re
import secrets
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url
from topology import free_port, stop_groups
from werkzeug.security import generate_password_hash

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Course, Exercise, GradingRun, Membership, RunState, Submission, User
from grader.services.exercise_store import import_library

ROOT = Path(__file__).resolve().parents[1]
SOURCE = (ROOT / "exercises/implementations/alphabeta/correct_fail_hard.py").read_text()
SLUG = "aima-fig5.2-alphabeta"
PASSWORD = "load-test-password"
FORM = re.compile(r"<form\b(?P<attrs>[^>]*)>(?P<body>.*?)</form>", re.S | re.I)
INPUT = re.compile(r"<(?:input|textarea)\b[^>]*>", re.I)
ATTR = re.compile(r'(\w[\w-]*)="([^"]*)"')


class Student:
    """One simulated student: a cookie jar and the forms it fills."""

    def __init__(self, base: str, email: str) -> None:
        self.base = base
        self.email = email
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect()
        )

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as response:
            body: bytes = response.read()
            return body.decode()

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        data = urllib.parse.urlencode(fields).encode()
        request = urllib.request.Request(self.base + path, data=data, method="POST")
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.headers.get("Location", "")
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Location", "")

    def login(self) -> None:
        fields = _hidden_fields(self.get("/login"), "email")
        status, _ = self.post("/login", {**fields, "email": self.email, "password": PASSWORD})
        assert status == 302, f"sign-in failed ({status})"

    def submit(self, exercise_id: int) -> tuple[float, int]:
        """Paste the source into the exercise's form; (when the POST started, submission id)."""
        page = self.get(f"/exercises/{exercise_id}")
        action, fields, textarea = _submit_form(page)
        started = time.time()
        status, location = self.post(action, {**fields, textarea: SOURCE})
        match = re.search(r"/submissions/(\d+)", location)
        assert status in (302, 303) and match, f"submission refused ({status} {location})"
        return started, int(match.group(1))


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def _hidden_fields(page: str, marker: str) -> dict[str, str]:
    for form in FORM.finditer(page):
        if f'name="{marker}"' in form.group("body"):
            return _fields(form.group("body"))
    raise AssertionError(f"no form with a {marker} field")


def _fields(body: str) -> dict[str, str]:
    found = {}
    for tag in INPUT.findall(body):
        attrs = dict(ATTR.findall(tag))
        if attrs.get("type") == "hidden" and "name" in attrs:
            found[attrs["name"]] = html.unescape(attrs.get("value", ""))
    return found


def _submit_form(page: str) -> tuple[str, dict[str, str], str]:
    for form in FORM.finditer(page):
        textarea = re.search(r'<textarea\b[^>]*name="([^"]+)"', form.group("body"))
        if textarea:
            action = dict(ATTR.findall(form.group("attrs"))).get("action", "")
            return html.unescape(action), _fields(form.group("body")), textarea.group(1)
    raise AssertionError("the exercise page has no paste form")


class Service:
    """gunicorn and a Celery worker on a fresh PostgreSQL schema and Redis database."""

    def __init__(self, database_url: str, redis_url: str, folder: Path) -> None:
        self.schema = f"grader_load_{secrets.token_hex(4)}"
        self.admin = create_engine(database_url)
        with self.admin.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{self.schema}"'))
        url = make_url(database_url).update_query_dict({"options": f"-csearch_path={self.schema}"})
        self.url = url.render_as_string(hide_password=False)
        upgrade(self.url)
        self.settings = Settings(
            env="development", instance_dir=folder, database_url=self.url, redis_url=redis_url
        )
        self.port = free_port()
        self.processes: list[subprocess.Popen[bytes]] = []
        self.folder = folder

    def start(self, web_workers: int, grading_workers: int) -> None:
        env = dict(
            os.environ,
            GRADER_ENV="development",
            GRADER_INSTANCE_DIR=str(self.folder),
            GRADER_DATABASE_URL=self.url,
            GRADER_REDIS_URL=self.settings.redis_url,
            GRADER_SUBMISSION_MIN_GAP_SECONDS="0",
            GRADER_SUBMISSIONS_PER_HOUR="1000000",
        )
        bin_dir = Path(sys.executable).parent
        commands = [
            [str(bin_dir / "gunicorn"), "--bind", f"127.0.0.1:{self.port}", "--workers",
             str(web_workers), "--log-level", "warning", "grader.wsgi:app"],
            [str(bin_dir / "celery"), "-A", "worker.celery_app", "worker", "--concurrency",
             str(grading_workers), "-O", "fair", "--loglevel", "WARNING", "--without-gossip",
             "--without-mingle"],
        ]  # fmt: skip
        for command in commands:
            log = (self.folder / f"{Path(command[0]).name}.log").open("wb")
            self.processes.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def stop(self) -> None:
        stop_groups(self.processes, grace=20.0)
        with self.admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{self.schema}" CASCADE'))
        self.admin.dispose()


def _setup(database: Database, settings: Settings, students: int) -> tuple[int, list[str]]:
    digest = generate_password_hash(PASSWORD, method="pbkdf2:sha256:1000")
    with database.session() as session:
        course = Course(title="Load", join_code=secrets.token_hex(4))
        session.add(course)
        session.flush()
        import_library(session, settings, course)
        exercise_id = session.scalars(
            select(Exercise.id).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        ).one()
        emails = [f"load{i}@example.edu" for i in range(students)]
        users = [User(email=e, name=e, password_hash=digest) for e in emails]
        session.add_all(users)
        session.flush()
        session.add_all(Membership(user_id=u.id, course_id=course.id) for u in users)
    return exercise_id, emails


def _wait(database: Database, ids: list[int], timeout: float) -> dict[int, datetime]:
    deadline = time.monotonic() + timeout
    while True:
        with database.session() as session:
            rows = session.execute(
                select(GradingRun.submission_id, GradingRun.state, GradingRun.finished_at).where(
                    GradingRun.submission_id.in_(ids)
                )
            ).all()
        done = {
            sid: at
            for sid, state, at in rows
            if state in (RunState.GRADED, RunState.ERROR) and at is not None
        }
        if len(done) == len(ids) or time.monotonic() > deadline:
            return done
        time.sleep(0.1)


def _stamp(moment: datetime) -> float:
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


def burst(students: list[Student], exercise_id: int, count: int, database: Database) -> float:
    per_student = max(1, count // len(students))
    started = time.time()
    with ThreadPoolExecutor(len(students)) as pool:
        ids = [
            sid
            for chunk in pool.map(
                lambda s: [s.submit(exercise_id)[1] for _ in range(per_student)], students
            )
            for sid in chunk
        ]
    done = _wait(database, ids, timeout=600)
    assert len(done) == len(ids), f"only {len(done)} of {len(ids)} graded"
    last = max(_stamp(at) for at in done.values())
    return len(ids) / (last - started)


def steady(
    students: list[Student], exercise_id: int, rate: float, seconds: float, database: Database
) -> list[float]:
    total = int(rate * seconds)
    submitted: list[tuple[float, int]] = []
    lock = threading.Lock()
    start = time.monotonic()

    def one(index: int) -> None:
        delay = start + index / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        result = students[index % len(students)].submit(exercise_id)
        with lock:
            submitted.append(result)

    with ThreadPoolExecutor(max(len(students), 8)) as pool:
        list(pool.map(one, range(total)))
    done = _wait(database, [sid for _, sid in submitted], timeout=600)
    assert len(done) == len(submitted), f"only {len(done)} of {len(submitted)} graded"
    return sorted(_stamp(done[sid]) - began for began, sid in submitted)


def baseline(settings: Settings, count: int) -> float:
    """Gradings per second done directly in this process, one after the other."""
    from reference.exercises.catalog import load_catalog
    from worker.grading import grade

    exercise = load_catalog(settings.exercises_dir).get(SLUG)
    began = time.perf_counter()
    for _ in range(count):
        report = grade(
            exercise, SOURCE, "search.py", key=settings.hidden_tree_key,
            exercises_dir=settings.exercises_dir,
        )  # fmt: skip
        assert report.verdict == "passed"
    return count / (time.perf_counter() - began)


def _percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(share * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=20)
    parser.add_argument("--burst", type=int, default=200)
    parser.add_argument("--bursts", type=int, default=3, help="bursts in a row (median kept)")
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--grading-workers", type=int, default=2)
    args = parser.parse_args()
    database_url = os.environ.get(
        "GRADER_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
    )
    redis_url = os.environ.get("GRADER_TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        service = Service(database_url, redis_url, Path(folder))
        database = Database(service.url)
        try:
            exercise_id, emails = _setup(database, service.settings, args.students)
            service.start(args.web_workers, args.grading_workers)
            students = [Student(f"http://127.0.0.1:{service.port}", e) for e in emails]
            for student in students:
                student.login()
            rates = [burst(students, exercise_id, args.burst, database) for _ in range(args.bursts)]
            throughput = statistics.median(rates)
            latencies = steady(students, exercise_id, args.rate, args.seconds, database)
            with database.session() as session:
                graded = session.scalar(select(func.count()).select_from(Submission))
                spans = session.execute(select(GradingRun.started_at, GradingRun.finished_at)).all()
            grading = sorted(_stamp(end) - _stamp(start) for start, end in spans if start and end)
        finally:
            service.stop()
            database.engine.dispose()
        direct = baseline(service.settings, 50)
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(f"submissions graded: {graded}")
    shown = ", ".join(f"{rate:.1f}" for rate in rates)
    print(
        f"{args.bursts} bursts of {args.burst}: median {throughput:.1f} graded submissions/s "
        f"({shown}; target >= 50)"
    )
    print(
        f"steady {args.rate:g}/s for {args.seconds:g} s: latency p50 "
        f"{statistics.median(latencies) * 1000:.0f} ms, p95 "
        f"{_percentile(latencies, 0.95) * 1000:.0f} ms (target p95 < 1000 ms)"
    )
    print(
        f"grading time per run inside the worker: median {statistics.median(grading) * 1000:.0f}"
        f" ms, p95 {_percentile(grading, 0.95) * 1000:.0f} ms"
    )
    print(
        f"baseline, the same gradings in one process: {direct:.1f} gradings/s; "
        f"service/baseline = {throughput / direct:.2f}"
    )


if __name__ == "__main__":
    main()
