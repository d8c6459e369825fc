"""Executing one grading run: claim it, grade the submission in the sandbox, store the result.

A plain function under the Celery task. Safe to call for any delivery of a run's task: a
finished run is left alone, a run delivered too often ends as ``internal_error``, and a
failure of ours ends the run as ``internal_error`` (never blamed on the student).
"""

from __future__ import annotations

import logging
import time

from grader.config import Settings
from grader.db import Database
from grader.logs import bind
from grader.models import ExerciseVersion
from grader.services.exercise_store import load_version, materialize
from grader.services.queue import Queue
from grader.services.runs import fail_run, finish_run, start_run
from worker.grading import grade
from worker.sandbox import SandboxOptions

log = logging.getLogger(__name__)


def execute_run(
    database: Database, settings: Settings, run_id: int, *, worker: str, task_id: str
) -> str:
    """Grade run ``run_id``; what happened, in a word (graded, skipped, discarded, error)."""
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
            database, settings, run_id, start.delivery, slug, version, source, filename
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
        )
    except Exception as error:
        log.exception("run %s: internal error while grading", run_id)
        with database.sessions() as session:
            outbound = fail_run(
                session,
                run_id,
                delivery,
                f"the grader failed ({type(error).__name__}); this is not your fault and "
                "does not count as an attempt",
            )
        _send_outbound(database, settings, outbound or [])
        return "error"
    with database.sessions() as session:
        outbound = finish_run(session, settings, run_id, delivery, report)
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


def _send_outbound(database: Database, settings: Settings, delivery_ids: list[int]) -> None:
    """Send the result callbacks and scores a finished run made (after their commit)."""
    if delivery_ids:
        Queue(settings, database).send_deliveries(delivery_ids)
