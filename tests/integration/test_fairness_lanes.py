"""Hostile submissions do not hold up the others (real Redis, PostgreSQL and Celery workers
as the service starts them): submissions that spin forever are stopped after a tenth of a
second in the fast lane and graded in the slow lane, while a correct submission sent after
them is graded at once, in the fast lane."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from grader.config import Settings
from grader.db import Database
from grader.models import Course, GradingRun, User
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK
from tests.grader.conftest import stored_report
from tests.integration.conftest import (
    ROOT,
    Worker,
    exercise_of,
    service_settings,
    start_service_workers,
    wait_until_graded,
)

pytestmark = pytest.mark.integration

CORRECT = (ROOT / "exercises/implementations/alphabeta/correct_fail_hard.py").read_text()
SPINS = """def max_value(game, state, alpha, beta):
    while True:
        pass


def min_value(game, state, alpha, beta):
    return max_value(game, state, alpha, beta)
"""


def _submitted(database: Database, settings: Settings, course: Course, source: str) -> int:
    """A new student's submission, committed: its run's id."""
    exercise = exercise_of(database, course, "aima-fig5.2-alphabeta")
    with database.session() as session:
        student = User(email=f"fair{secrets.token_hex(6)}@example.edu", name="Student")
        session.add(student)
        session.flush()
        return submit(session, settings, student, exercise, "search.py", source).runs[0].id


def test_spinning_submissions_go_to_the_slow_lane_without_holding_up_a_correct_one(
    pg_url: str,
    own_redis: str,
    pg_course: Course,
    tmp_path: Path,
    workers: Callable[..., Worker],
) -> None:
    settings = service_settings(tmp_path, pg_url, own_redis)
    database = Database(pg_url)
    start_service_workers(workers, settings)
    queue = Queue(settings, database)
    # The grading processes start their sandboxes first.
    warm = [_submitted(database, settings, pg_course, CORRECT) for _ in range(2)]
    assert queue.send(GRADE_TASK, warm) == 2
    wait_until_graded(database, warm, timeout=60)

    spinning = [_submitted(database, settings, pg_course, SPINS) for _ in range(8)]
    assert queue.send(GRADE_TASK, spinning) == 8
    probe = _submitted(database, settings, pg_course, CORRECT)
    began = time.monotonic()
    assert queue.send(GRADE_TASK, [probe]) == 1
    wait_until_graded(database, [probe], timeout=60)
    waited = time.monotonic() - began
    # Each spinning one used to hold a grading process for its 2 s of CPU and more: 8 of
    # them on two processes, 10 s or so before the probe's turn.
    assert waited < 5, f"the correct submission was graded {waited:.1f} s after it was sent"

    wait_until_graded(database, spinning, timeout=120)
    with database.session() as session:
        ran = {run_id: session.get(GradingRun, run_id) for run_id in [probe, *spinning]}
    first = ran[probe]
    assert first is not None and (first.lane, first.verdict) == ("fast", "passed")
    for run_id in spinning:
        run = ran[run_id]
        assert run is not None
        assert (run.lane, run.verdict, run.claims) == ("slow", "time_limit", 1)
        # Graded with the exercise's own limit, 2 s of CPU.
        report = stored_report(database, run_id)
        assert report is not None and "2 s of CPU" in report["message"]
    database.engine.dispose()
