"""Celery tasks: thin wrappers over :mod:`worker.execute` and :mod:`grader.services.runs`.

A grading or delivery task that meets a database or a broker it cannot reach is tried again
later (with a growing, jittered wait), never acknowledged as failed: the database is the
truth about a run, so a task tried again after its work was done does nothing.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import redis.exceptions
from celery import Task
from kombu.exceptions import OperationalError as BrokerError
from sqlalchemy.exc import InterfaceError, OperationalError

from grader.db import Database
from grader.logs import bind
from grader.lti.lineitems import ATTEMPTS, RETRY_SECONDS, read_due
from grader.services.analyses import analyse
from grader.services.deliveries import due
from grader.services.jobs import reap
from grader.services.queue import Queue
from grader.services.tasks import (
    ANALYSE_TASK,
    CHECK_ADDED_TASK,
    DELIVER_TASK,
    GRADE_TASK,
    LINEITEM_TASK,
    REAP_TASK,
    SWEEP_TASK,
)
from worker.added_check import TryAgain, check_added
from worker.celery_app import app
from worker.execute import execute_run
from worker.outbound import deliver_now

CHECK_TRIES = 3
"""Deliveries of an added implementation's check whose sandbox could not run it, before
the check fails saying so (as a run is sent again up to ``max_run_attempts`` times)."""
CHECK_RETRY_SECONDS = 30

TRANSIENT_ERRORS = (
    OperationalError,
    InterfaceError,
    BrokerError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
)
"""What a lost connection to the database or the broker raises."""


class GraderTask(Task):
    """Every task of the service: tried again after a transient error, without end."""

    autoretry_for = TRANSIENT_ERRORS
    max_retries = None
    retry_backoff = 1
    retry_backoff_max = 10
    retry_jitter = True


@lru_cache(maxsize=1)
def _database() -> Database:
    return Database.from_settings(app.conf.grader_settings)


@app.task(name=GRADE_TASK, bind=True, base=GraderTask)
def grade_run(self: Any, run_id: int) -> str:
    with bind(task_id=self.request.id):
        return execute_run(
            _database(),
            app.conf.grader_settings,
            run_id,
            worker=self.request.hostname or "worker",
            task_id=self.request.id or "",
        )


@app.task(name=REAP_TASK)
def reap_stuck_runs() -> int:
    """Send again every job whose task was lost (each kind's stuck-job finder in
    :mod:`grader.services.jobs`), after the commit that puts them back in the queue; how
    many (not tried again after an error: the beat sends the next one soon)."""
    settings = app.conf.grader_settings
    return reap(_database(), settings, Queue(settings, _database(), app))


@app.task(name=DELIVER_TASK, bind=True, base=GraderTask)
def deliver(self: Any, delivery_id: int) -> str:
    """One attempt of an outbound delivery; the next one is planned with a countdown."""
    wait = deliver_now(_database(), app.conf.grader_settings, delivery_id)
    if wait is None:
        return "done"
    self.apply_async(args=[delivery_id], countdown=wait)
    return f"retry in {wait:.0f} s"


@app.task(name=LINEITEM_TASK, bind=True, base=GraderTask)
def read_lineitem_due(self: Any, launch_id: int, attempt: int = 1) -> str:
    """Read the due date of a launch's line item; a platform that did not answer is asked
    once more a minute later, then left to the next launch (no storm of retries)."""
    database = _database()
    with bind(task_id=self.request.id):
        settings = app.conf.grader_settings
        reading = read_due(database, settings, launch_id, Queue(settings, database, app))
    if reading.retry and attempt < ATTEMPTS:
        self.apply_async(args=[launch_id, attempt + 1], countdown=RETRY_SECONDS)
        return f"{reading.summary}; again in {RETRY_SECONDS:.0f} s"
    return reading.summary


@app.task(name=SWEEP_TASK)
def sweep_deliveries() -> int:
    """Send every delivery whose next try is due (any message the broker lost; not tried
    again after an error: the beat sends the next sweep soon)."""
    database = _database()
    with database.sessions() as session:
        ids = due(session)
    return Queue(app.conf.grader_settings, database, app).send(DELIVER_TASK, ids)


@app.task(name=ANALYSE_TASK, bind=True, base=GraderTask)
def analyse_version(self: Any, version_id: int) -> str:
    """Expand an exercise version's games, trace its trees and check its hidden trees,
    storing the result in its analysis row (nothing when it is done already)."""
    with bind(task_id=self.request.id):
        return analyse(
            _database(), app.conf.grader_settings, version_id, task_id=self.request.id or ""
        )


@app.task(name=CHECK_ADDED_TASK, bind=True, base=GraderTask)
def check_added_implementation(self: Any, added_id: int) -> str:
    """Run an instructor's wrong implementation in the sandbox on its exercise's trees and
    store which catch it (nothing when it is checked already); a sandbox that cannot run
    it is tried again a little later, :data:`CHECK_TRIES` times in all."""
    with bind(task_id=self.request.id):
        try:
            return check_added(
                _database(),
                app.conf.grader_settings,
                added_id,
                last_try=self.request.retries + 1 >= CHECK_TRIES,
            )
        except TryAgain as error:
            raise self.retry(exc=error, countdown=CHECK_RETRY_SECONDS, max_retries=None) from error
