"""An instructor's wrong implementation is checked by a real Celery worker of the slow
grading lane (the workers that hold the sandbox), sent there by name after the commit that
adds it, over Redis, with its result stored in PostgreSQL."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from grader.db import Database
from grader.models import AddedImplementation, AddedState, Course, Role
from grader.services import added_implementations as library
from grader.services.exercise_store import import_library
from tests.grader.conftest import add_user
from tests.integration.conftest import SharedWorkers, add_and_wait

pytestmark = pytest.mark.integration


def test_a_slow_lane_worker_checks_an_added_implementation(
    tmp_path: Path, shared_workers: SharedWorkers
) -> None:
    settings = shared_workers.settings(tmp_path / "instance")
    settings.instance_dir.mkdir()
    database = Database(settings.database_url)
    with database.session() as session:
        # A course of its own: the suspects it adds must not reach other tests' gradings.
        course = Course(title="Known mistakes", join_code=f"K{secrets.token_hex(4)}")
        session.add(course)
        session.flush()
        import_library(session, settings, course)
    teacher = add_user(database, f"mistakes-{secrets.token_hex(3)}@example.edu", Role.INSTRUCTOR)

    added_id = add_and_wait(database, settings, course, teacher, "min_never_prunes")

    with database.session() as session:
        found = session.get(AddedImplementation, added_id)
        assert found is not None
        state, task_id = found.state, found.task_id
    assert state == AddedState.READY and task_id  # sent by name, its task id noted
    with database.session() as session:
        counts = library.counts(session, [added_id])[added_id]
    assert counts.public_caught == counts.public == 1 and counts.hidden > 0
    database.engine.dispose()
