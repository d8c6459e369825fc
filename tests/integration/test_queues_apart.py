"""Each kind of work in a queue of its own, served by workers of its own as the service
starts them (real Redis, PostgreSQL and Celery worker processes): a receiver that hangs
does not delay anybody's grading, the reaper runs however long the grading backlog, every
worker reports its heartbeat, and ``/metrics`` reads each queue's depth from Redis."""

from __future__ import annotations

import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import delete, select, update

from grader.config import Settings
from grader.db import Database
from grader.metrics import render_metrics
from grader.models import (
    AnalysisState,
    Course,
    ExerciseVersion,
    GradingRun,
    LmsSubmission,
    User,
    VersionAnalysis,
    utcnow,
)
from grader.models.workers import WorkerHeartbeat
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK, QUEUES
from tests.grader.lms.test_callbacks import make_integration, new_secret
from tests.grader.test_ops import sample
from tests.integration.conftest import (
    ROOT,
    Worker,
    exercise_of,
    service_settings,
    start_service_workers,
    wait_until_graded,
)
from worker.celery_app import make_celery

pytestmark = pytest.mark.integration

CORRECT = (ROOT / "exercises/implementations/alphabeta/correct_fail_hard.py").read_text()


@contextmanager
def hanging_receiver() -> Iterator[str]:
    """A callback URL whose server accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/lms/callback"
    finally:
        stop.set()
        thread.join(5)
        for connection in held:
            connection.close()
        listener.close()


def _lms_submission(
    database: Database, settings: object, course: Course, integration_id: int, url: str
) -> int:
    exercise = exercise_of(database, course, "aima-fig5.2-alphabeta")
    with database.session() as session:
        student = User(email=f"hang{secrets.token_hex(6)}@example.edu", name="LMS student")
        session.add(student)
        session.flush()
        submission = submit(session, settings, student, exercise, "search.py", CORRECT)  # type: ignore[arg-type]
        session.add(
            LmsSubmission(
                submission_id=submission.id, integration_id=integration_id, callback_url=url
            )
        )
        session.flush()
        return submission.runs[0].id


def _graded_after(database: Database, run_id: int) -> float:
    with database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None and run.finished_at is not None
        return (run.finished_at - run.queued_at).total_seconds()


def test_a_hanging_receiver_does_not_delay_another_grading(
    pg_url: str,
    own_redis: str,
    pg_course: Course,
    tmp_path: Path,
    workers: Callable[..., Worker],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The worker processes read this when they load the callbacks: the receiver is on loopback.
    monkeypatch.setenv("GRADER_CALLBACKS_ALLOW_PRIVATE", "1")
    settings = service_settings(tmp_path, pg_url, own_redis)
    database = Database(pg_url)
    started = start_service_workers(workers, settings)
    with hanging_receiver() as url:
        integration_id = make_integration(database, pg_course, new_secret())
        hanging = [
            _lms_submission(database, settings, pg_course, integration_id, url) for _ in range(8)
        ]
        assert Queue(settings, database).send(GRADE_TASK, hanging) == 8
        wait_until_graded(database, hanging, timeout=120)
        # Their callbacks now hang; a student submits meanwhile.
        probe = _lms_submission(database, settings, pg_course, integration_id, url)
        began = time.monotonic()
        assert Queue(settings, database).send(GRADE_TASK, [probe]) == 1
        wait_until_graded(database, [probe], timeout=60)
        waited = time.monotonic() - began
    # Alone, a grading takes well under a second; sharing a worker with the callbacks it
    # took 35-51 s.
    assert waited < 15, f"the probe was graded {waited:.1f} s after it was sent"
    assert _graded_after(database, probe) < 15
    with database.session() as session:
        seen = session.execute(select(WorkerHeartbeat.hostname, WorkerHeartbeat.queue)).all()
    queues_seen = {queue for _, queue in seen}
    assert set(QUEUES) <= queues_seen, seen
    assert all(worker.process and worker.process.poll() is None for worker in started)
    database.engine.dispose()


def test_the_reaper_runs_however_long_the_grading_backlog(
    pg_url: str,
    own_redis: str,
    pg_course: Course,
    tmp_path: Path,
    workers: Callable[..., Worker],
) -> None:
    settings = service_settings(tmp_path, pg_url, own_redis, reaper_interval_seconds=1)
    database = Database(pg_url)
    # A backlog nobody grades yet: 300 messages in the grading queue.
    celery = make_celery(settings)
    for _ in range(300):
        celery.send_task(GRADE_TASK, args=[0], queue="grading")
    # A run whose message the broker lost a while ago.
    exercise = exercise_of(database, pg_course, "aima-fig5.2-alphabeta")
    with database.session() as session:
        student = User(email=f"reap{secrets.token_hex(6)}@example.edu", name="Student")
        session.add(student)
        session.flush()
        run_id = submit(session, settings, student, exercise, "search.py", CORRECT).runs[0].id
    first = utcnow() - timedelta(minutes=5)
    with database.session() as session:
        session.execute(update(GradingRun).where(GradingRun.id == run_id).values(queued_at=first))

    with _analyses_elsewhere(database):
        _reaped_behind_the_backlog(settings, database, workers, run_id, first)
    database.engine.dispose()


@contextmanager
def _analyses_elsewhere(database: Database) -> Iterator[None]:
    """Every version without an analysis given one, as sent elsewhere, for the block: the
    reaper would otherwise make them (the library's versions), and their minutes of work on
    the one maintenance worker are not this test's subject."""
    with database.session() as session:
        missing = session.scalars(
            select(ExerciseVersion.id)
            .outerjoin(VersionAnalysis, VersionAnalysis.version_id == ExerciseVersion.id)
            .where(VersionAnalysis.version_id.is_(None))
        ).all()
        session.add_all(
            VersionAnalysis(version_id=version_id, state=AnalysisState.QUEUED, task_id="elsewhere")
            for version_id in missing
        )
    try:
        yield
    finally:
        with database.session() as session:
            session.execute(delete(VersionAnalysis).where(VersionAnalysis.version_id.in_(missing)))


def _reaped_behind_the_backlog(
    settings: Settings,
    database: Database,
    workers: Callable[..., Worker],
    run_id: int,
    first: datetime,
) -> None:
    workers(settings, queues="maintenance", concurrency=1, beat=True)
    deadline = time.monotonic() + 60
    while True:
        with database.session() as session:
            run = session.get(GradingRun, run_id)
            assert run is not None
            if run.task_id is not None:
                break
        if time.monotonic() > deadline:
            pytest.fail("the reaper did not send the lost run again within 60 s")
        time.sleep(0.25)
    assert run.requeued_at is not None
    assert abs(run.queued_at - first) < timedelta(seconds=1)  # the first time is kept

    # The backlog is still there, with the lost run behind it (nobody grades: no worker).
    with database.sessions() as session:
        exposition = render_metrics(session, settings)[0].decode()
    assert sample(exposition, "grader_broker_up") == 1
    assert sample(exposition, "grader_queue_depth", 'queue="grading"') == 301
    # The reaper's own queue holds at most the few rounds the beat sent while the worker
    # was busy (every second here; more on a busy machine), not the grading backlog.
    assert sample(exposition, "grader_queue_depth", 'queue="maintenance"') < 30
    assert sample(exposition, "grader_oldest_queued_run_seconds") >= 290
