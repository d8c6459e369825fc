"""An instructor's time bomb does not hold the fast lane every course shares (real Redis,
PostgreSQL and Celery workers of both grading lanes): an added implementation that
searched like a known mistake while it was checked, and sleeps on every tree since, leaves
the fast lane's time for a submission that matches it as it is without one; the slow lane
then spends no more than the course's budget on it."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import update

from grader.config import Settings
from grader.db import Database
from grader.models import AddedImplementation, AddedState, Course, Role, User
from grader.services.exercise_store import import_library
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK
from tests.grader.conftest import add_user, stored_report
from tests.integration.conftest import (
    Worker,
    add_and_wait,
    exercise_of,
    service_settings,
    wait_until_graded,
)
from tests.worker.added_sources import MIN_NEVER_PRUNES, SLUG
from tests.worker.test_hostile_instructor import SLEEPER

pytestmark = pytest.mark.integration


def _course(database: Database, settings: Settings, title: str) -> Course:
    with database.session() as session:
        course = Course(title=title, join_code=f"H{secrets.token_hex(4)}")
        session.add(course)
        session.flush()
        import_library(session, settings, course)
    return course


def _time_bomb(database: Database, settings: Settings, course: Course) -> int:
    """MIN_NEVER_PRUNES added and checked by the slow lane, then turned into the sleeper."""
    teacher = add_user(database, f"bomb-{secrets.token_hex(3)}@example.edu", Role.INSTRUCTOR)
    added_id = add_and_wait(database, settings, course, teacher, "time_bomb")
    with database.session() as session:
        found = session.get(AddedImplementation, added_id)
        assert found is not None and found.state == AddedState.READY
        session.execute(
            update(AddedImplementation)
            .where(AddedImplementation.id == added_id)
            .values(source=SLEEPER)
        )
    return added_id


def _submitted(database: Database, settings: Settings, course: Course) -> int:
    exercise = exercise_of(database, course, SLUG)
    with database.session() as session:
        student = User(email=f"bombed{secrets.token_hex(6)}@example.edu", name="Student")
        session.add(student)
        session.flush()
        return submit(session, settings, student, exercise, "s.py", MIN_NEVER_PRUNES).runs[0].id


def _milliseconds(log: Path, run_id: int, pattern: str) -> float:
    found = re.search(rf"run {run_id}{pattern} (\d+) ms", log.read_text(errors="replace"))
    assert found is not None, f"run {run_id}: no line {pattern!r} in {log.name}"
    return float(found.group(1))


def test_a_time_bomb_leaves_the_fast_lane_as_fast_as_without_it(
    pg_url: str, own_redis: str, tmp_path: Path, workers: Callable[..., Worker]
) -> None:
    settings = service_settings(tmp_path / "instance", pg_url, own_redis)
    settings.instance_dir.mkdir()
    database = Database(pg_url)
    plain = _course(database, settings, "No added implementations")
    bombed = _course(database, settings, "A time bomb")
    slow = workers(settings, queues="grading-slow", concurrency=1)
    _time_bomb(database, settings, bombed)
    fast = workers(settings, queues="grading", concurrency=1)
    queue = Queue(settings, database)
    # The fast lane's process starts its sandbox and builds the exercise's pools first.
    warm = [_submitted(database, settings, plain), _submitted(database, settings, bombed)]
    assert queue.send(GRADE_TASK, warm) == 2
    wait_until_graded(database, warm, timeout=120)

    baseline, probe = _submitted(database, settings, plain), _submitted(database, settings, bombed)
    assert queue.send(GRADE_TASK, [baseline]) == 1
    wait_until_graded(database, [baseline], timeout=60)
    assert queue.send(GRADE_TASK, [probe]) == 1
    wait_until_graded(database, [probe], timeout=120)

    alone = _milliseconds(fast.log, baseline, r" graded: failed in")
    bombed_fast = _milliseconds(fast.log, probe, r": .* in the fast lane after")
    bombed_slow = _milliseconds(slow.log, probe, r" graded: failed in")
    print(f"fast lane: {alone:.0f} ms without an added implementation, {bombed_fast:.0f} ms "
          f"with the time bomb (then {bombed_slow:.0f} ms in the slow lane)")  # fmt: skip
    # Run in the fast lane under the exercise's own limits, it slept 10 s on each of the
    # draw's fresh trees; now it is never run there, and the grading moves on.
    assert bombed_fast < alone + 1000
    # In the slow lane, the course's budget for its added implementations (2 s) is all it
    # costs beyond the grading itself.
    assert bombed_slow < alone + settings.added_seconds_per_grading * 1000 + 3000
    report = stored_report(database, probe)
    assert report is not None and report["verdict"] == "failed"
    diagnosis = report["diagnosis"]
    assert all("added/time_bomb" not in found["implementations"]
               for found in diagnosis["misconceptions"])  # fmt: skip
    database.engine.dispose()
