"""Executing one grading run: claim it, grade the submission in the sandbox, store the result.

A plain function under the Celery task. Safe to call for any delivery of a run's task: a
finished run is left alone and a run delivered too often ends as ``internal_error``.

A failure of ours never leaves a run ``running`` nor is blamed on the student: when the
grading raises, when the sandbox itself fails on a tree (the report's verdict is
``internal_error``) or when the result cannot be stored, the run goes back to the queue
and its task is sent again, up to ``max_run_attempts`` deliveries in all; then it ends
as ``internal_error``, which does not count as an attempt. If even that cannot be
written (the database is down), the run stays ``running`` and the reaper sends it again
after ``run_timeout_seconds``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.logs import bind
from grader.models import ExerciseVersion
from grader.services.exercise_store import load_version, materialize
from grader.services.queue import Queue
from grader.services.runs import INTERNAL_ERROR, finish_run, retry_run, start_run
from worker.grading import grade
from worker.sandbox import SandboxOptions

log = logging.getLogger(__name__)


def execute_run(
    database: Database, settings: Settings, run_id: int, *, worker: str, task_id: str
) -> str:
    """Grade run ``run_id``; what happened, in a word (graded, skipped, discarded, retried,
    error)."""
    with database.sessions() as session:
        start = start_run(session, settings, run_id, worker, task_id)
        run = start.run
        if run is None:
            log.info("run %s not graded: %s", run_id, start.reason)
            _send_outbound(database, settings, start.outbound)
            return "skipped"
        submission, version = run.submission, run.version
        submission_id, source, filename = submission.id, submission.source, submission.filename
        slug = version.exercise.slug
        materialize(settings, slug, version)  # its files are read here, if ever
        session.expunge(version)
        session.rollback()
    with bind(submission_id=submission_id):
        return _grade_and_store(
            database,
            settings,
            run_id,
            start.delivery,
            slug,
            version,
            source,
            filename,
            submission_id,
        )


def _grade_and_store(
    database: Database,
    settings: Settings,
    run_id: int,
    delivery: int,
    slug: str,
    version: ExerciseVersion,
    source: str,
    filename: str,
    submission_id: int,
) -> str:
    began = time.perf_counter()
    try:
        model = load_version(settings, slug, version)
        report = grade(
            model,
            source,
            filename,
            key=settings.hidden_tree_key,
            exercises_dir=settings.exercises_dir,
            options=SandboxOptions(allow_unconfined=settings.sandbox_allow_unconfined),
            # A regrade of the same submission against the same exercise version gets the
            # same hidden trees; another submission, or another version, gets others.
            draw=f"version-{version.content_hash}/submission-{submission_id}",
        )
    except Exception as error:
        log.exception("run %s: internal error while grading", run_id)
        what = f"the grader raised {type(error).__name__}"
    else:
        return _store(database, settings, run_id, delivery, report, began)
    # Out of the except clause: sending the run again may grade it here (eager tasks).
    return _retry(database, settings, run_id, delivery, what)


def _store(
    database: Database,
    settings: Settings,
    run_id: int,
    delivery: int,
    report: dict[str, Any],
    began: float,
) -> str:
    if report["verdict"] == INTERNAL_ERROR:
        log.error("run %s: the sandbox failed: %s", run_id, report["message"])
        return _retry(database, settings, run_id, delivery, "the sandbox failed", report)
    try:
        with _session(database) as session:
            outbound = finish_run(session, settings, run_id, delivery, report)
    except Exception as error:
        log.exception("run %s: its result could not be stored", run_id)
        what = f"its result could not be stored ({type(error).__name__})"
    else:
        stored = outbound is not None
        _send_outbound(database, settings, outbound or [])
        log.info(
            "run %s %s: %s in %.0f ms",
            run_id,
            "graded" if stored else "discarded (another delivery owns it)",
            report["verdict"],
            (time.perf_counter() - began) * 1000,
        )
        return "graded" if stored else "discarded"
    return _retry(database, settings, run_id, delivery, what)


@contextmanager
def _session(database: Database) -> Iterator[Session]:
    """A session of ``database``, rolled back when the block raises."""
    with database.sessions() as session:
        try:
            yield session
        except BaseException:
            session.rollback()
            raise


def _retry(
    database: Database,
    settings: Settings,
    run_id: int,
    delivery: int,
    what: str,
    report: dict[str, Any] | None = None,
) -> str:
    """After a failure of ours: send the run again, or end it (see the module's docstring)."""
    try:
        with _session(database) as session:
            retried = retry_run(session, settings, run_id, delivery, what, report)
    except Exception:
        if report is None:
            log.exception("run %s: neither sent again nor ended; the reaper will send it", run_id)
            return "error"
        # The report itself may be what the database refused: end the run without it.
        log.exception("run %s: the failed grading's report could not be stored", run_id)
    else:
        if retried is None:
            log.info("run %s: another delivery owns it", run_id)
            return "discarded"
        if retried.again:
            log.warning("run %s: %s; sent again", run_id, what)
            Queue(settings, database).send([run_id])
            return "retried"
        log.error("run %s ended as internal_error: %s", run_id, what)
        _send_outbound(database, settings, retried.outbound)
        return "error"
    return _retry(database, settings, run_id, delivery, what)


def _send_outbound(database: Database, settings: Settings, delivery_ids: list[int]) -> None:
    """Send the result callbacks and scores a finished run made (after their commit)."""
    if delivery_ids:
        Queue(settings, database).send_deliveries(delivery_ids)
