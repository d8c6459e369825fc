"""What the benches of grading latency share: a fresh service on the service's own topology
(a PostgreSQL schema of its own, an emptied Redis database, the Celery workers as
``scripts/run.sh`` starts them), submissions made through the services layer as the web app
makes them, and each run's submit-to-graded time as the service stamped it."""

from __future__ import annotations

import os
import secrets
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import redis
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url
from topology import ServiceWorkers, library_exercise

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Exercise, GradingRun, RunState, Submission, User
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "exercises" / "implementations"


def database_url() -> str:
    return os.environ.get(
        "GRADER_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
    )


def redis_url() -> str:
    return os.environ.get("GRADER_BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")


@dataclass
class Service:
    """The running service of a bench: its database, settings, queue and workers."""

    database: Database
    settings: Settings
    queue: Queue
    workers: ServiceWorkers
    exercise_id: int

    def send(self, email: str, source: str, user_id: int | None = None) -> tuple[int, int]:
        """A submission of ``source`` by the student ``email`` (made when ``user_id`` is
        None), committed and sent: (its run's id, the student's id)."""
        with self.database.session() as session:
            student = None if user_id is None else session.get(User, user_id)
            if student is None:
                student = User(email=email, name=email.split("@")[0])
                session.add(student)
                session.flush()
            exercise = session.get(Exercise, self.exercise_id)
            assert exercise is not None
            made = submit(session, self.settings, student, exercise, "search.py", source)
            run_id, student_id = made.runs[0].id, student.id
        self.queue.send(GRADE_TASK, [run_id])
        return run_id, student_id


@contextmanager
def service(folder: Path, slug: str, title: str) -> Iterator[Service]:
    """A fresh service graded by the workers of ``bench/topology.py``, on exercise ``slug``
    of a new course ``title``; its schema dropped at the end."""
    schema = f"grader_bench_{secrets.token_hex(4)}"
    admin = create_engine(database_url())
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(database_url()).update_query_dict(
        # Named, so that a bench can tell its own server processes (pg_stat_activity).
        {"options": f"-csearch_path={schema}", "application_name": schema}
    )
    rendered = url.render_as_string(hide_password=False)
    redis.Redis.from_url(redis_url()).flushdb()
    try:
        upgrade(rendered)
        settings = Settings(
            env="development",
            instance_dir=folder,
            database_url=rendered,
            redis_url=redis_url(),
            submission_min_gap_seconds=0,
            submissions_per_hour=1_000_000,
        )
        database = Database(rendered)
        exercise_id = library_exercise(database, settings, title, slug)
        workers = ServiceWorkers(settings, folder).start()
        try:
            yield Service(database, settings, Queue(settings, database), workers, exercise_id)
        finally:
            workers.stop()
            database.engine.dispose()
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@dataclass(frozen=True)
class Timing:
    """A finished run: its verdict, lane, seconds from submission to graded, and seconds
    from submission to its (last) start."""

    verdict: str | None
    lane: str
    seconds: float
    waited: float


def finished(database: Database, run_ids: list[int], timeout: float) -> list[Timing]:
    """The timing of each run of ``run_ids`` finished within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        with database.session() as session:
            rows = session.execute(
                select(
                    GradingRun.state,
                    GradingRun.verdict,
                    GradingRun.lane,
                    Submission.created_at,
                    GradingRun.started_at,
                    GradingRun.finished_at,
                )
                .join(Submission)
                .where(GradingRun.id.in_(run_ids))
            ).all()
        done = [row for row in rows if row.state in (RunState.GRADED, RunState.ERROR)]
        if len(done) == len(run_ids) or time.monotonic() > deadline:
            return [
                Timing(
                    row.verdict,
                    row.lane,
                    _stamp(row.finished_at) - _stamp(row.created_at),
                    _stamp(row.started_at) - _stamp(row.created_at),
                )
                for row in done
            ]
        time.sleep(0.2)


def _stamp(moment: datetime) -> float:
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def p50_p95(timings: list[Timing]) -> tuple[float, float]:
    seconds = [timing.seconds for timing in timings]
    return statistics.median(seconds), percentile(seconds, 0.95)


@contextmanager
def burners(count: int) -> Iterator[None]:
    """``count`` processes spinning on the CPU for the block (a busy machine: load average
    about ``count`` plus what runs), each in a session of its own: the kernel's autogroups
    then weigh each as much as a worker's session, as unrelated programs would be."""
    spinning = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
        for _ in range(count)
    ]
    try:
        yield
    finally:
        for process in spinning:
            process.kill()
            process.wait()
