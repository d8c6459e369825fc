"""An instructor's wrong implementation is checked by a real Celery worker of the slow
grading lane (the workers that hold the sandbox), sent there by name after the commit that
adds it, over Redis, with its result stored in PostgreSQL."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import select

from grader.db import Database
from grader.models import AddedImplementation, AddedState, Course, Exercise, Role, User
from grader.services import added_implementations as library
from grader.services.exercise_store import import_library
from grader.services.queue import Queue
from tests.grader.conftest import add_user
from tests.integration.conftest import Worker, service_settings
from tests.worker.added_sources import MIN_NEVER_PRUNES, SLUG

pytestmark = pytest.mark.integration


def test_a_slow_lane_worker_checks_an_added_implementation(
    tmp_path: Path, pg_url: str, own_redis: str, workers: Callable[..., Worker]
) -> None:
    settings = service_settings(tmp_path / "instance", pg_url, own_redis)
    settings.instance_dir.mkdir()
    database = Database(pg_url)
    with database.session() as session:
        # A course of its own: the suspects it adds must not reach other tests' gradings.
        course = Course(title="Known mistakes", join_code=f"K{secrets.token_hex(4)}")
        session.add(course)
        session.flush()
        import_library(session, settings, course)
    teacher = add_user(database, f"mistakes-{secrets.token_hex(3)}@example.edu", Role.INSTRUCTOR)
    workers(settings, queues="grading-slow", concurrency=1)

    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        ).one()
        author = session.get(User, teacher.id)
        assert author is not None
        draft = library.filled_from_header(
            library.Draft(stem="min_never_prunes", source=MIN_NEVER_PRUNES), MIN_NEVER_PRUNES
        )
        row = library.add(
            session, exercise, author, draft, limit=65536, sender=Queue(settings, database)
        )
        assert isinstance(row, AddedImplementation), row
        added_id = row.id

    deadline = time.monotonic() + 90
    while True:
        with database.session() as session:
            found = session.get(AddedImplementation, added_id)
            assert found is not None
            state, task_id = found.state, found.task_id
        if state != AddedState.CHECKING or time.monotonic() > deadline:
            break
        time.sleep(0.25)

    assert state == AddedState.READY and task_id  # sent by name, its task id noted
    with database.session() as session:
        counts = library.counts(session, [added_id])[added_id]
    assert counts.public_caught == counts.public == 1 and counts.hidden > 0
    database.engine.dispose()
