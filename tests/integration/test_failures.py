"""What a student's code can return or print, and failures of ours, through a real Celery
worker on PostgreSQL: a root value of inf and printed NUL are stored (PostgreSQL refused
both, and the run stayed running); a grading that raises is sent again through the broker
until ``max_run_attempts`` claims, then ends as ``internal_error``."""

from __future__ import annotations

import secrets
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.models import Course, GradingRun, NodeResult, RunState, TreeResult
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK
from tests.grader.conftest import add_user, stored_report
from tests.integration.conftest import (
    ROOT,
    SharedWorkers,
    Worker,
    exercise_of,
    service_settings,
    wait_until_graded,
)

pytestmark = pytest.mark.integration

INFINITE = """def max_value(game, state, alpha, beta):
    print("nul\\x00 ansi\\x1b[2K\\r")
    return float("inf")


def min_value(game, state, alpha, beta):
    return float("-inf")
"""
CORRECT = (ROOT / "exercises/implementations/alphabeta/correct_fail_hard.py").read_text()


def _submitted(database: Database, settings: Settings, course: Course, source: str) -> int:
    """A new student's submission, committed: its run's id."""
    exercise = exercise_of(database, course, "aima-fig5.2-alphabeta")
    student = add_user(database, f"failures-{secrets.token_hex(6)}@example.edu")
    with database.session() as session:
        submission_id = submit(session, settings, student, exercise, "search.py", source).id
    with database.session() as session:
        return session.scalars(
            select(GradingRun.id).where(GradingRun.submission_id == submission_id)
        ).one()


def _run(database: Database, run_id: int) -> GradingRun:
    with database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None
        session.expunge(run)
        return run


def test_a_root_value_of_inf_and_printed_nul_are_stored(
    shared_workers: SharedWorkers, pg_course: Course, tmp_path: Path
) -> None:
    settings = shared_workers.settings(tmp_path)
    database = Database(settings.database_url)
    run_id = _submitted(database, settings, pg_course, INFINITE)
    assert Queue(settings, database).send(GRADE_TASK, [run_id]) == 1
    wait_until_graded(database, [run_id], timeout=90)

    run = _run(database, run_id)
    assert (run.state, run.verdict, run.claims) == (RunState.GRADED, "failed", 1)
    report = stored_report(database, run_id)
    assert report is not None
    figure = report["cases"][0]
    assert figure["value"] == {"expected": 3, "actual": "inf"}
    assert report["stdout"].startswith("nul\\x00 ansi\x1b[2K\r")
    with database.session() as session:
        rows = session.scalars(
            select(NodeResult.node)
            .join(TreeResult)
            .where(TreeResult.run_id == run_id, TreeResult.position == 0)
        ).all()
    assert "A" in rows
    database.engine.dispose()


def test_a_grading_that_raises_is_sent_again_then_ends_as_internal_error(
    pg_url: str,
    flushed_redis: str,
    pg_course: Course,
    tmp_path: Path,
    workers: Callable[..., Worker],
) -> None:
    # The worker's library of implementations has a file it cannot read: every grading
    # raises (a fault of ours, not of the submission).
    library = tmp_path / "exercises"
    shutil.copytree(ROOT / "exercises", library)
    (library / "implementations" / "alphabeta" / "zz_broken.py").write_text("x = 1\n")
    settings = service_settings(tmp_path, pg_url, flushed_redis)
    database = Database(pg_url)
    workers(replace(settings, exercises_dir=library))
    run_id = _submitted(database, settings, pg_course, CORRECT)
    assert Queue(settings, database).send(GRADE_TASK, [run_id]) == 1
    wait_until_graded(database, [run_id], timeout=90)

    run = _run(database, run_id)
    assert (run.state, run.verdict) == (RunState.ERROR, "internal_error")
    assert run.claims == settings.max_run_attempts == 3
    assert "grading failed 3 times, the last time because the grader raised" in (run.message or "")
    assert "not your fault" in (run.message or "")
    database.engine.dispose()
