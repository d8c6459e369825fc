"""End to end with the real parts: PostgreSQL, Redis and Celery worker processes.

Upload -> queued -> graded -> node rows; a second delivery does nothing; a worker killed
with SIGKILL in the middle of a run; Redis stopped with runs queued; a burst of 200.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import redis
from sqlalchemy import func, select

from grader.db import Database
from grader.models import Course, GradingRun, NodeResult, RunState, Submission, TreeResult, User
from grader.models.submissions import Lane
from grader.services import broker_epoch
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK
from tests.grader.conftest import stored_report
from tests.integration.conftest import (
    SharedWorkers,
    Worker,
    exercise_of,
    free_port,
    service_settings,
    wait_until_graded,
)
from tests.processes import end_with_test

LIBRARY = Path(__file__).resolve().parents[2] / "exercises" / "implementations" / "alphabeta"
BURST = 200
"""Submissions sent at once to the grading lanes."""
CORRECT = (LIBRARY / "correct_fail_hard.py").read_text()
WRONG = (LIBRARY / "wrong_no_pruning.py").read_text()
# Correct, but each tree's fresh module spends 0.2 s of CPU first: a run of 9 trees takes
# about 2 s, long enough to kill its worker in the middle.
SLOW = "import time\n_t = time.perf_counter()\nwhile time.perf_counter() - _t < 0.2:\n    pass\n"
SLOW += CORRECT

pytestmark = pytest.mark.integration


def _students(database: Database, course: Course, count: int) -> list[User]:
    with database.session() as session:
        users = [
            User(email=f"s{time.monotonic_ns()}-{i}@example.edu", name=f"Student {i}")
            for i in range(count)
        ]
        session.add_all(users)
        session.flush()
        for user in users:
            session.expunge(user)
    return users


def _submit_runs(
    database: Database, settings: object, course: Course, sources: list[str]
) -> list[int]:
    """One submission per source (one student each), committed; their runs' ids."""
    exercise = exercise_of(database, course, "aima-fig5.2-alphabeta")
    students = _students(database, course, len(sources))
    with database.session() as session:
        submissions = [
            submit(session, settings, student, exercise, "search.py", source)  # type: ignore[arg-type]
            for student, source in zip(students, sources, strict=True)
        ]
        ids = [submission.id for submission in submissions]
    with database.session() as session:
        return list(
            session.scalars(
                select(GradingRun.id)
                .where(GradingRun.submission_id.in_(ids))
                .order_by(GradingRun.id)
            )
        )


def _public_verdicts(database: Database, run_id: int) -> dict[str, str]:
    with database.session() as session:
        rows = session.execute(
            select(NodeResult.node, NodeResult.verdict)
            .join(TreeResult)
            .where(TreeResult.run_id == run_id, TreeResult.hidden.is_(False))
        ).all()
    verdicts = dict(rows)
    assert len(verdicts) == len(rows), "a node has more than one row"
    return verdicts


def _tree_rows(database: Database, run_id: int) -> int:
    with database.session() as session:
        return (
            session.scalar(
                select(func.count()).select_from(TreeResult).where(TreeResult.run_id == run_id)
            )
            or 0
        )


def test_figure_5_2_end_to_end_and_a_second_delivery_does_nothing(
    shared_workers: SharedWorkers, pg_course: Course, tmp_path: Path
) -> None:
    settings = shared_workers.settings(tmp_path)
    database = Database(settings.database_url)
    queue = Queue(settings, database)
    right, wrong = _submit_runs(database, settings, pg_course, [CORRECT, WRONG])
    with database.session() as session:
        assert session.get(GradingRun, right).state == RunState.QUEUED  # type: ignore[union-attr]
    assert queue.send(GRADE_TASK, [right, wrong]) == 2
    wait_until_graded(database, [right, wrong], timeout=120)

    verdicts = _public_verdicts(database, right)
    assert verdicts["C2"] == verdicts["C3"] == "pruned"
    assert {v for node, v in verdicts.items() if node not in ("C2", "C3")} == {"ok"}
    flagged = _public_verdicts(database, wrong)
    assert flagged["C2"] == flagged["C3"] == "extra"
    with database.session() as session:
        run = session.get(GradingRun, right)
        assert run is not None
        assert (run.state, run.verdict, run.score, run.claims) == ("graded", "passed", 100, 1)
        assert run.worker and run.worker.startswith("test-")
        assert run.started_at and run.finished_at and run.queued_at <= run.started_at
        report = stored_report(database, right)
        assert report is not None and report["cases"][0]["name"] == "fig5.2"
        bad = session.get(GradingRun, wrong)
        assert bad is not None and bad.verdict == "failed" and (bad.score or 0) < 100
    rows = _tree_rows(database, right)

    # The same task delivered again (a duplicate from the broker): nothing changes.
    result = queue.celery.send_task(GRADE_TASK, args=[right])
    assert result.get(timeout=60) == "skipped"
    assert _tree_rows(database, right) == rows
    with database.session() as session:
        assert session.get(GradingRun, right).claims == 1  # type: ignore[union-attr]
    database.engine.dispose()


def test_a_worker_killed_mid_run_leaves_the_run_graded_exactly_once(
    pg_url: str,
    flushed_redis: str,
    pg_course: Course,
    tmp_path: Path,
    workers: Callable[..., Worker],
) -> None:
    # The reaper's timeout is the default's (15 minutes): the run must come back sooner, as
    # its worker stops reporting.
    settings = service_settings(
        tmp_path, pg_url, flushed_redis, reaper_interval_seconds=1, heartbeat_seconds=1,
        worker_gone_seconds=4,
    )  # fmt: skip
    assert settings.run_timeout_seconds >= 900
    database = Database(pg_url)
    first = workers(settings, concurrency=1)
    (run_id,) = _submit_runs(database, settings, pg_course, [SLOW])
    Queue(settings, database).send(GRADE_TASK, [run_id])
    # The submission spends 0.2 s of CPU on each tree: the fast lane gives it up at once
    # and it is graded in the slow lane, where it takes seconds. Kill it there.
    deadline = time.monotonic() + 60
    while True:
        with database.session() as session:
            run = session.get(GradingRun, run_id)
            assert run is not None
            state, lane = run.state, run.lane
        if state == RunState.RUNNING and lane == Lane.SLOW:
            break
        assert time.monotonic() < deadline, f"run never started in the slow lane ({state})"
        time.sleep(0.05)
    time.sleep(0.5)
    # SIGKILL to the worker's main process only, as the OOM killer or an operator does;
    # what it started is left to itself.
    assert first.process is not None
    first.process.kill()
    first.process.wait(10)
    killed = time.monotonic()
    with database.session() as session:
        assert _tree_rows(database, run_id) == 0

    # Another worker with its beat: the reaper finds the run's worker silent and sends the
    # run again, well within a minute.
    try:
        workers(settings, beat=True, concurrency=1)
        wait_until_graded(database, [run_id], timeout=60)
        recovered = time.monotonic() - killed
    finally:
        first.kill()  # and what its main process started
    assert recovered < 60
    with database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None
        # Graded by the new worker (2 claims), or by the killed one's pool process that
        # finished before the reaper took the run back (1): once, either way.
        assert (run.state, run.verdict) == ("graded", "passed")
        assert run.claims in (1, 2)
    verdicts = _public_verdicts(database, run_id)  # one row per node, not two
    assert verdicts["C2"] == "pruned"
    assert _tree_rows(database, run_id) == 9
    database.engine.dispose()


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
def test_runs_queued_while_redis_is_down_are_all_graded(
    pg_url: str, pg_course: Course, tmp_path: Path, workers: Callable[..., Worker]
) -> None:
    port = free_port()

    def start_redis() -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"],
            stdout=subprocess.DEVNULL, preexec_fn=end_with_test,
        )  # fmt: skip
        client = redis.Redis(port=port)
        for _ in range(100):
            try:
                client.ping()
                return process
            except redis.ConnectionError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    server = start_redis()
    # The reaper's timeout is the default's (15 minutes): the lost runs must come back sooner
    # (the runs never sent, after their grace, shortened here from 30 s).
    settings = service_settings(
        tmp_path,
        pg_url,
        f"redis://127.0.0.1:{port}/0",
        reaper_interval_seconds=1,
        unsent_grace_seconds=3,
    )
    assert settings.run_timeout_seconds >= 900
    database = Database(pg_url)
    try:
        # The reaper has looked at this broker before (its epoch is written).
        with database.session() as session:
            assert not broker_epoch.messages_lost(session, settings)
        sent = _submit_runs(database, settings, pg_course, [CORRECT] * 5)
        assert Queue(settings, database).send(GRADE_TASK, sent) == 5
        server.terminate()  # the queued messages are lost with it: it keeps nothing on disk
        server.wait(10)
        unsent = _submit_runs(database, settings, pg_course, [CORRECT] * 3)
        assert Queue(settings, database).send(GRADE_TASK, unsent) == 0
        server = start_redis()
        back = time.monotonic()
        workers(settings, beat=True)
        wait_until_graded(database, sent + unsent, timeout=60)
        assert time.monotonic() - back < 60
        with database.session() as session:
            runs = session.scalars(select(GradingRun).where(GradingRun.id.in_(sent + unsent)))
            assert {(run.state, run.verdict, run.claims) for run in runs} == {
                ("graded", "passed", 1)
            }
        assert {_tree_rows(database, run) for run in sent + unsent} == {9}
    finally:
        server.terminate()
        server.wait(10)
        database.engine.dispose()


def test_a_burst_of_submissions_is_graded_once_each(
    shared_workers: SharedWorkers, pg_course: Course, tmp_path: Path
) -> None:
    # 200 at once (bench/rush.py sends 500 from 200 students in a minute).
    settings = shared_workers.settings(tmp_path)
    database = Database(settings.database_url)
    runs = _submit_runs(database, settings, pg_course, [CORRECT, WRONG] * (BURST // 2))
    assert Queue(settings, database).send(GRADE_TASK, runs) == BURST
    wait_until_graded(database, runs, timeout=400)
    with database.session() as session:
        finished = session.execute(
            select(GradingRun.verdict, GradingRun.claims, func.count())
            .where(GradingRun.id.in_(runs))
            .group_by(GradingRun.verdict, GradingRun.claims)
        ).all()
        assert sorted(finished) == [("failed", 1, BURST // 2), ("passed", 1, BURST // 2)]
        trees = session.execute(
            select(TreeResult.run_id, func.count())
            .where(TreeResult.run_id.in_(runs))
            .group_by(TreeResult.run_id)
        ).all()
        assert len(trees) == BURST and {count for _, count in trees} == {9}
        submissions = session.scalar(
            select(func.count(func.distinct(GradingRun.submission_id))).where(
                GradingRun.id.in_(runs)
            )
        )
        assert submissions == BURST
        assert (
            session.scalar(
                select(func.count())
                .select_from(Submission)
                .where(
                    Submission.id.in_(
                        select(GradingRun.submission_id).where(GradingRun.id.in_(runs))
                    )
                )
            )
            == BURST
        )
    database.engine.dispose()
