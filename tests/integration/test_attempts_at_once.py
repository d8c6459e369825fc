"""One student's attempts sent at the same moment through the whole web stack (gunicorn with
several worker processes, the submit form with its sign-in and CSRF token), on the embedded
SQLite database and on PostgreSQL: each accepted attempt has a number of its own (1, 2, 3...
in the order they were made) and the rate limits hold: with a minimum gap between attempts
one of them is accepted, the others refused with 429; with five an hour, five are."""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise
from pathlib import Path

import pytest
import requests
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Course, Exercise, GradingRun, Role, Submission, User
from grader.services.exercise_store import import_library
from tests.grader.conftest import PASSWORD, add_user
from tests.integration.conftest import Gunicorn, Worker

pytestmark = pytest.mark.integration

SLUG = "aima-fig5.2-alphabeta"
SOURCE = "def max_value(game, state, alpha, beta):\n    return 3\n"
AT_ONCE = 8
TRIALS = 5
"""Trials per service, each with a new student: a race lost once in a few would show."""
PROCESSES = 4
"""gunicorn's worker processes: sync workers take one request each, so up to this many of
the student's requests are handled at the same moment."""
TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


@dataclass(frozen=True)
class Limits:
    """The attempts' rate limits of a service, and how many of ``AT_ONCE`` attempts sent
    together they let through."""

    min_gap_seconds: int
    per_hour: int
    accepted: int


LIMITS = {
    "no-limit": Limits(min_gap_seconds=0, per_hour=1000, accepted=AT_ONCE),
    "min-gap": Limits(min_gap_seconds=10, per_hour=1000, accepted=1),
    "per-hour": Limits(min_gap_seconds=0, per_hour=5, accepted=5),
}


@dataclass(frozen=True)
class Service:
    """A running web service, its database, and the course it holds."""

    base: str
    database: Database
    course: Course
    exercise_id: int


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def service(
    where: str, limits: Limits, tmp_path: Path, gunicorn: Gunicorn, request: pytest.FixtureRequest
) -> Iterator[Service]:
    """gunicorn serving a course on a fresh database: SQLite in a new instance folder with the
    embedded broker (nothing else installed), or the test PostgreSQL with Redis."""
    instance = tmp_path / "instance"
    instance.mkdir()
    if where == "sqlite":
        database_url, redis_url = "", ""
        upgrade(f"sqlite:///{instance / 'grader.db'}")
    else:
        database_url = request.getfixturevalue("pg_url")
        redis_url = request.getfixturevalue("flushed_redis")
    settings = Settings(
        env="development",
        instance_dir=instance,
        database_url=database_url,
        redis_url=redis_url,
        submission_min_gap_seconds=limits.min_gap_seconds,
        submissions_per_hour=limits.per_hour,
    )
    database = Database(settings.sqlalchemy_url)
    with database.session() as session:
        course = Course(title="At once", join_code=secrets.token_hex(4).upper())
        session.add(course)
        session.flush()
        import_library(session, settings, course)
        exercise_id = session.scalars(
            select(Exercise.id).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        ).one()
    env = Worker(settings, tmp_path / "unused.log").env()
    env["GRADER_SUBMISSION_MIN_GAP_SECONDS"] = str(limits.min_gap_seconds)
    env["GRADER_SUBMISSIONS_PER_HOUR"] = str(limits.per_hour)
    base, _ = gunicorn(env, processes=PROCESSES)
    try:
        yield Service(base, database, course, exercise_id)
    finally:
        database.engine.dispose()


def signed_in(service: Service, student: User) -> requests.Session:
    browser = requests.Session()
    token = TOKEN.search(browser.get(service.base + "/login", timeout=10).text)
    assert token
    answer = browser.post(
        service.base + "/login",
        data={"email": student.email, "password": PASSWORD, "csrf_token": token.group(1)},
        allow_redirects=False,
        timeout=10,
    )
    assert answer.status_code == 302
    return browser


def attempts_at_once(service: Service, browser: requests.Session, count: int) -> list[int]:
    """The statuses of ``count`` attempts posted by ``browser``'s student at the same moment
    (each from a thread of its own, released together)."""
    page = browser.get(f"{service.base}/exercises/{service.exercise_id}", timeout=10)
    token = TOKEN.search(page.text)
    assert token, page.text[:500]
    url = f"{service.base}/exercises/{service.exercise_id}/submissions"
    form = {"pasted": SOURCE, "csrf_token": token.group(1)}
    together = threading.Barrier(count)
    statuses: list[int] = []

    def post() -> None:
        own = requests.Session()
        own.cookies.update(browser.cookies)
        together.wait()
        statuses.append(own.post(url, data=form, allow_redirects=False, timeout=60).status_code)

    threads = [threading.Thread(target=post) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(statuses)


@dataclass(frozen=True)
class Stored:
    attempt: int
    created_at: datetime
    task_id: str | None
    """The id its run's task was sent with (None: never sent)."""


def stored_attempts(service: Service, student: User) -> list[Stored]:
    """The student's submissions as stored, in the order they were made."""
    with service.database.session() as session:
        rows = session.execute(
            select(Submission.attempt, Submission.created_at, GradingRun.task_id)
            .join(GradingRun, GradingRun.submission_id == Submission.id)
            .where(Submission.user_id == student.id, Submission.exercise_id == service.exercise_id)
            .order_by(Submission.created_at, Submission.id)
        ).all()
    return [Stored(*row) for row in rows]


@pytest.mark.parametrize("limits", LIMITS.values(), ids=LIMITS.keys())
def test_attempts_sent_at_once_get_numbers_of_their_own_within_the_limits(
    service: Service, limits: Limits
) -> None:
    refused = AT_ONCE - limits.accepted
    for trial in range(TRIALS):
        email = f"student-{trial}-{secrets.token_hex(4)}@example.edu"
        student = add_user(service.database, email, Role.STUDENT, service.course)
        browser = signed_in(service, student)

        statuses = attempts_at_once(service, browser, AT_ONCE)

        assert statuses == [302] * limits.accepted + [429] * refused, f"trial {trial}"
        stored = stored_attempts(service, student)
        assert [s.attempt for s in stored] == list(range(1, limits.accepted + 1)), f"trial {trial}"
        gap = timedelta(seconds=limits.min_gap_seconds)
        times = [s.created_at for s in stored]
        assert all(later - earlier >= gap for earlier, later in pairwise(times))
        # Each accepted attempt's run was sent to the workers after its commit.
        assert all(s.task_id is not None for s in stored)
