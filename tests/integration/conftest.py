"""Real parts for the end-to-end tests: PostgreSQL (a fresh schema per session), Redis (a
database of its own, emptied), and Celery worker processes started as the service starts
them. ``GRADER_TEST_DATABASE_URL`` / ``GRADER_TEST_REDIS_URL`` (set by the test command from
``DATABASE_URL`` / ``REDIS_URL``) choose the servers; the defaults are the local ones."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis
import requests
from sqlalchemy import create_engine, delete, func, select, text
from sqlalchemy.engine import make_url

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import (
    AddedImplementation,
    AddedState,
    Course,
    Exercise,
    GradingRun,
    RunState,
    User,
)
from grader.models.workers import BrokerEpoch
from grader.services import added_implementations as added
from grader.services.broker_epoch import broker_name
from grader.services.exercise_store import import_library
from grader.services.queue import Queue
from grader.services.tasks import QUEUES
from tests.processes import end_with_test
from tests.redis_databases import DEFAULT_REDIS, db_below, make_url_with_db, process_index
from tests.worker.added_sources import MIN_NEVER_PRUNES
from tests.worker.added_sources import SLUG as ADDED_SLUG

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATABASE = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@pytest.fixture(autouse=True)
def no_unhandled_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail the test when an app it served in-process answered a request with an unhandled
    error (a 500 page): its exception first, so that a browser test that waited in vain
    for a page says why in its summary line, and its traceback after."""
    yield
    raised = [
        record
        for record in caplog.get_records("call")
        if record.name == "grader.web.errors" and str(record.msg).startswith("unhandled error")
    ]
    if raised:
        first = raised[0]
        kind, error = (first.exc_info or (None, None, None))[:2]
        named = "?" if kind is None else f"{kind.__name__}: {error}"
        trace = "".join(traceback.format_exception(*first.exc_info)) if first.exc_info else ""
        pytest.fail(f"{first.getMessage()}: {named}\n{trace}", pytrace=False)


def _database_url() -> str:
    url = os.environ.get("GRADER_TEST_DATABASE_URL") or DEFAULT_DATABASE
    if url.startswith(("postgresql://", "postgres://")):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A migrated, empty schema of its own on the real PostgreSQL; dropped afterwards."""
    base = _database_url()
    schema = f"grader_test_{secrets.token_hex(4)}"
    admin = create_engine(base)
    try:
        with admin.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as error:  # pragma: no cover - a broken setup, said plainly
        pytest.fail(f"PostgreSQL at {make_url(base)!r} is not usable: {error}")
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    rendered = url.render_as_string(hide_password=False)
    upgrade(rendered)
    yield rendered
    with admin.begin() as connection:
        connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


REDIS_PER_PROCESS = 3
"""Redis databases one test process uses (its own, the shared workers' and ``own_redis``'s):
the second process of a parallel run (pytest-xdist's ``gw1``) takes the three below the
first's, and so on."""


@pytest.fixture(scope="session")
def redis_url() -> str:
    url = os.environ.get("GRADER_TEST_REDIS_URL") or DEFAULT_REDIS
    if process_index():
        url = make_url_with_db(url, db_below(url, REDIS_PER_PROCESS * process_index()))
    try:
        redis.Redis.from_url(url).ping()
    except redis.RedisError as error:  # pragma: no cover
        pytest.fail(f"Redis at {url} is not usable: {error}")
    return url


def service_settings(
    instance: Path, database_url: str, redis_url: str, **extra: object
) -> Settings:
    return Settings(
        env="development",
        instance_dir=instance,
        database_url=database_url,
        redis_url=redis_url,
        submission_min_gap_seconds=0,
        submissions_per_hour=100_000,
        **extra,  # type: ignore[arg-type]
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Worker:
    """A Celery worker process of the service (with the beat scheduler when ``beat``),
    serving ``queues`` (all of them unless told)."""

    settings: Settings
    log: Path
    beat: bool = False
    concurrency: int = 2
    queues: str = ",".join(QUEUES)
    pool: str = "prefork"
    extra_env: dict[str, str] = field(default_factory=dict)
    """Variables set for this worker alone, over the test process's environment."""
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)

    def env(self) -> dict[str, str]:
        s = self.settings
        env = dict(os.environ)
        env.update(
            GRADER_ENV="development",
            GRADER_INSTANCE_DIR=str(s.instance_dir),
            GRADER_DATABASE_URL=s.database_url,
            GRADER_REDIS_URL=s.redis_url,
            GRADER_RUN_TIMEOUT_SECONDS=str(s.run_timeout_seconds),
            GRADER_REAPER_INTERVAL_SECONDS=str(s.reaper_interval_seconds),
            GRADER_HEARTBEAT_SECONDS=str(s.heartbeat_seconds),
            GRADER_WORKER_GONE_SECONDS=str(s.worker_gone_seconds),
            GRADER_UNSENT_GRACE_SECONDS=str(s.unsent_grace_seconds),
            GRADER_MAX_RUN_ATTEMPTS=str(s.max_run_attempts),
            GRADER_EXERCISES_DIR=str(s.exercises_dir),
            GRADER_PASSWORD_HASH=s.password_hash,
            PYTHONPATH=str(ROOT),
        )
        env.update(self.extra_env)
        return env

    def start(self) -> Worker:
        command = [
            sys.executable, "-m", "celery", "-A", "worker.celery_app", "worker",
            "--loglevel", "INFO", "--concurrency", str(self.concurrency), "-O", "fair",
            "--hostname", f"test-{secrets.token_hex(3)}@%h", "--without-mingle",
            "--without-gossip", "-Q", self.queues, "--pool", self.pool,
        ]  # fmt: skip
        if self.beat:
            command += ["-B", "--schedule", str(self.settings.instance_dir / "beat-schedule")]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=end_with_test,
            )  # fmt: skip
        return self

    def kill(self) -> None:
        """SIGKILL to the worker and every process it started (those too when its main
        process was killed alone)."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        if self.process.poll() is None:
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    started: list[Worker] = []

    def start(settings: Settings, **options: object) -> Worker:
        worker = Worker(settings, tmp_path / f"worker-{len(started)}.log", **options)  # type: ignore[arg-type]
        started.append(worker.start())
        return worker

    yield start
    for worker in started:
        worker.kill()
    for worker in started:
        sys.stderr.write(f"--- {worker.log.name} (tail)\n")
        sys.stderr.write("\n".join(worker.log.read_text(errors="replace").splitlines()[-15:]))


def start_service_workers(
    workers: Callable[..., Worker], settings: Settings, *, beat: bool = False
) -> list[Worker]:
    """The workers of the service, each on its own queues, as scripts/run.sh and
    docker-compose.yml start them."""
    return [
        workers(settings, queues=queues, concurrency=concurrency, pool=pool,
                beat=beat and queues == "maintenance")
        for queues, concurrency, pool in SERVICE_LANES
    ]  # fmt: skip


CPUS = os.cpu_count() or 1
SERVICE_LANES = (
    ("grading", 4 * CPUS, "prefork"),
    ("grading-slow", CPUS, "prefork"),
    ("callbacks", 8, "threads"),
    ("maintenance", 1, "prefork"),
)
"""The service's workers: (queues, concurrency, pool) of each, as scripts/run.sh has them."""


Gunicorn = Callable[..., tuple[str, Path]]
"""Starts gunicorn with an environment, gunicorn options and a number of worker processes
(2 unless told): its base URL and log."""


@pytest.fixture
def gunicorn(tmp_path: Path) -> Iterator[Gunicorn]:
    """Start gunicorn as scripts/run.sh does (two workers unless told, its default 30 s
    timeout, an access log), with the environment ``env`` and any ``options`` after
    run.sh's; its base URL once /healthz answers, and its log."""
    started: list[subprocess.Popen[bytes]] = []

    def start(env: dict[str, str], *options: str, processes: int = 2) -> tuple[str, Path]:
        port = free_port()
        log = tmp_path / f"gunicorn-{len(started)}.log"
        command = [
            sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers",
            str(processes), "--access-logfile", "-", *options, "grader.wsgi:app",
        ]  # fmt: skip
        with log.open("ab") as out:
            process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=end_with_test,
            )  # fmt: skip
        started.append(process)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if requests.get(base + "/healthz", timeout=5).status_code == 200:
                    return base, log
            except requests.RequestException:
                time.sleep(0.2)
        raise AssertionError("gunicorn did not start:\n" + log.read_text(errors="replace"))

    yield start
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(30)


@pytest.fixture(scope="session")
def pg_course(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> Course:
    settings = service_settings(tmp_path_factory.mktemp("library"), pg_url, "")
    database = Database(pg_url)
    with database.session() as session:
        course = Course(title="Integration", join_code=f"I{secrets.token_hex(4)}")
        session.add(course)
        session.flush()
        import_library(session, settings, course)
    database.engine.dispose()
    return course


def new_broker(pg_url: str, url: str) -> str:
    """Redis database ``url`` emptied, and forgotten by the reaper: a new broker to it, not
    one that lost the messages of the tests before (which the reaper would send again)."""
    redis.Redis.from_url(url).flushdb()
    engine = create_engine(pg_url)
    with engine.begin() as connection:
        connection.execute(delete(BrokerEpoch).where(BrokerEpoch.broker == broker_name(url)))
    engine.dispose()
    return url


@pytest.fixture
def flushed_redis(pg_url: str, redis_url: str) -> str:
    return new_broker(pg_url, redis_url)


@pytest.fixture
def own_redis(pg_url: str, redis_url: str) -> str:
    """Another Redis database than the other tests' (emptied): workers of tests running at
    the same time on the shared one would take this test's messages from its queues."""
    return new_broker(pg_url, make_url_with_db(redis_url, db_below(redis_url, OWN_REDIS_BELOW)))


SERVICE_REDIS_BELOW = 1
OWN_REDIS_BELOW = 2
"""The Redis databases of ``shared_workers`` and of ``own_redis``: these many below the
tests' own (15 by default: 14 and 13), so that two suites given different databases (one
machine's CI jobs) keep apart in all three."""


SERVICE_ENV = {"GRADER_CALLBACKS_ALLOW_PRIVATE": "1"}
"""The session's workers send callbacks to receivers on loopback, as the tests' are."""


@dataclass(frozen=True)
class SharedWorkers:
    """The service's Celery workers, as scripts/run.sh starts them (both grading lanes,
    callbacks, maintenance; no beat), started once per session on a Redis database of their
    own, for the tests that need work done by them and nothing of a worker's own: such a
    test takes its :meth:`settings` and waits for its own rows. A test that stops, kills or
    reconfigures a worker, needs a lane missing or times the lanes starts its own
    (``workers``)."""

    database_url: str
    redis_url: str
    workers: list[Worker]

    def settings(self, instance: Path, **extra: object) -> Settings:
        """The settings the workers run with, in the folder ``instance`` of the test."""
        for worker in self.workers:
            assert worker.process is not None and worker.process.poll() is None, (
                f"the session's worker of {worker.queues} has ended:\n"
                + "\n".join(worker.log.read_text(errors="replace").splitlines()[-30:])
            )
        return service_settings(instance, self.database_url, self.redis_url, **extra)


@pytest.fixture(scope="session")
def shared_workers(
    pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SharedWorkers]:
    url = new_broker(pg_url, make_url_with_db(redis_url, db_below(redis_url, SERVICE_REDIS_BELOW)))
    folder = tmp_path_factory.mktemp("service")
    settings = service_settings(folder / "instance", pg_url, url)
    settings.instance_dir.mkdir()
    started = [
        Worker(
            settings, folder / f"{queues}.log", concurrency=concurrency, queues=queues,
            pool=pool, extra_env=SERVICE_ENV,
        ).start()
        for queues, concurrency, pool in SERVICE_LANES
    ]  # fmt: skip
    yield SharedWorkers(pg_url, url, started)
    for worker in started:
        worker.kill()


def exercise_of(database: Database, course: Course, slug: str) -> Exercise:
    with database.session() as session:
        found = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
        ).one()
        session.expunge(found)
        return found


def wait_until_graded(database: Database, run_ids: list[int], timeout: float) -> None:
    """Wait for every run to be finished; fail with the states seen at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        with database.session() as session:
            pending = session.scalar(
                select(func.count())
                .select_from(GradingRun)
                .where(
                    GradingRun.id.in_(run_ids),
                    GradingRun.state.in_([RunState.QUEUED, RunState.RUNNING]),
                )
            )
        if not pending:
            return
        if time.monotonic() > deadline:
            pytest.fail(f"{pending} of {len(run_ids)} runs still unfinished after {timeout} s")
        time.sleep(0.25)


def add_and_wait(
    database: Database,
    settings: Settings,
    course: Course,
    author: User,
    stem: str,
    source: str = MIN_NEVER_PRUNES,
    timeout: float = 90,
) -> int:
    """An implementation added to Figure 5.2 alpha-beta's library of ``course`` through the
    service (its check sent after the commit), once its check is no longer waiting (a
    worker of the slow lane must run); its id."""
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == ADDED_SLUG)
        ).one()
        found_author = session.get(User, author.id)
        assert found_author is not None
        draft = added.filled_from_header(added.Draft(stem=stem, source=source), source)
        row = added.add(
            session, exercise, found_author, draft, limit=65536, sender=Queue(settings, database)
        )
        assert isinstance(row, AddedImplementation), row
        added_id = row.id
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with database.session() as session:
            found = session.get(AddedImplementation, added_id)
            assert found is not None
            if found.state != AddedState.CHECKING:
                break
        time.sleep(0.25)
    return added_id
