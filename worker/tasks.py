"""Celery tasks: one line each over the plain functions that do the work.

Every task takes one id (a job's row, :mod:`grader.services.jobs`), and what they share is
their base class's: the process's database and settings, the log lines bound to the task
and the job, and the errors sorted. A job's task that meets a database or a broker it
cannot reach is tried again later (with a growing, jittered wait), never acknowledged as
failed: the row is the truth about the job, so a task tried again after its work was done
does nothing. Any other error is logged with the task and the job, and ends the task.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any

import redis.exceptions
from celery import Task
from celery.exceptions import Retry
from kombu.exceptions import OperationalError as BrokerError
from sqlalchemy.exc import InterfaceError, OperationalError

from grader.config import Settings
from grader.db import Database
from grader.logs import bind
from grader.lti.lineitems import ATTEMPTS, RETRY_SECONDS, read_due
from grader.services.analyses import analyse
from grader.services.deliveries import due
from grader.services.jobs import reap
from grader.services.queue import Queue
from grader.services.retention import compact_for
from grader.services.tasks import (
    ANALYSE_TASK,
    CHECK_ADDED_TASK,
    COMPACT_TASK,
    DELIVER_TASK,
    GRADE_TASK,
    LINEITEM_TASK,
    REAP_TASK,
    SWEEP_TASK,
)
from worker import heartbeat
from worker.added_check import TryAgain, check_added
from worker.celery_app import app
from worker.execute import execute_run
from worker.heap import settle_after_grading
from worker.outbound import deliver_now

log = logging.getLogger(__name__)

CHECK_TRIES = 3
"""Tries of an added implementation's check whose sandbox could not run it, before the
check fails saying so (as a run is sent again up to ``max_run_attempts`` times)."""
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
    """Every task of the service: the database and settings of this process, log lines
    bound to the task and its job (its first argument), errors sorted and logged once."""

    @property
    def settings(self) -> Settings:
        settings: Settings = self.app.conf.grader_settings
        return settings

    @property
    def database(self) -> Database:
        return _database()

    def jobs(self) -> Queue:
        """The way to the workers, on this app (not ``queue``: Celery reads a task's
        ``queue`` attribute as the name of the queue it is sent to)."""
        return Queue(self.settings, self.database, self.app)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        job_id = args[0] if args and isinstance(args[0], int) else None
        with bind(task_id=self.request.id, job_id=job_id):
            try:
                return super().__call__(*args, **kwargs)
            except Retry:
                log.info("%s of job %s is tried again later", self.name, job_id)
                raise
            except TRANSIENT_ERRORS as error:
                log.warning("%s of job %s: %s", self.name, job_id, type(error).__name__)
                raise
            except Exception:
                log.exception("%s of job %s failed", self.name, job_id)
                raise


class JobTask(GraderTask):
    """The task of a kind of job: tried again after a transient error, without end."""

    autoretry_for = TRANSIENT_ERRORS
    max_retries = None
    retry_backoff = 1
    retry_backoff_max = 10
    retry_jitter = True


@lru_cache(maxsize=1)
def _database() -> Database:
    return Database.from_settings(app.conf.grader_settings)


@app.task(name=GRADE_TASK, bind=True, base=JobTask)
def grade_run(self: JobTask, run_id: int) -> str:
    """Grade a run (nothing when another task claimed it or it is finished)."""
    # The name the worker reports under: the reaper takes the run back if it stops.
    worker, task_id = heartbeat.name(self.request.hostname), self.request.id or ""
    what = execute_run(self.database, self.settings, run_id, worker=worker, task_id=task_id)
    settle_after_grading()  # this process's kept caches out of the collector's way
    return what


@app.task(name=ANALYSE_TASK, bind=True, base=JobTask)
def analyse_version(self: JobTask, version_id: int) -> str:
    """Expand an exercise version's games, trace its trees and check its hidden trees,
    storing the result in its analysis row (nothing when it is done already)."""
    return analyse(self.database, self.settings, version_id, task_id=self.request.id or "")


@app.task(name=CHECK_ADDED_TASK, bind=True, base=JobTask)
def check_added_implementation(self: JobTask, added_id: int) -> str:
    """Run an instructor's wrong implementation in the sandbox on its exercise's trees and
    store which catch it (nothing when it is checked already); a sandbox that cannot run
    it is tried again a little later, :data:`CHECK_TRIES` times in all."""
    last_try = self.request.retries + 1 >= CHECK_TRIES
    try:
        return check_added(self.database, self.settings, added_id, last_try=last_try)
    except TryAgain as error:
        raise self.retry(exc=error, countdown=CHECK_RETRY_SECONDS, max_retries=None) from error


@app.task(name=DELIVER_TASK, bind=True, base=JobTask)
def deliver(self: JobTask, delivery_id: int) -> str:
    """One attempt of an outbound delivery; the next one is planned with a countdown."""
    wait = deliver_now(self.database, self.settings, delivery_id)
    if wait is None:
        return "done"
    self.apply_async(args=[delivery_id], countdown=wait)
    return f"retry in {wait:.0f} s"


@app.task(name=LINEITEM_TASK, bind=True, base=JobTask)
def read_lineitem_due(self: JobTask, launch_id: int, attempt: int = 1) -> str:
    """Read the due date of a launch's line item; a platform that did not answer is asked
    once more a minute later, then left to the next launch (no storm of retries)."""
    reading = read_due(self.database, self.settings, launch_id, self.jobs())
    if reading.retry and attempt < ATTEMPTS:
        self.apply_async(args=[launch_id, attempt + 1], countdown=RETRY_SECONDS)
        return f"{reading.summary}; again in {RETRY_SECONDS:.0f} s"
    return reading.summary


@app.task(name=REAP_TASK, bind=True, base=GraderTask)
def reap_stuck_runs(self: GraderTask) -> int:
    """Send again every job whose task was lost (each kind's stuck-job finder in
    :mod:`grader.services.jobs`), after the commit that puts them back in the queue; how
    many (not tried again after an error: the beat sends the next one soon)."""
    return reap(self.database, self.settings, self.jobs())


@app.task(name=COMPACT_TASK, bind=True, base=GraderTask)
def compact_node_rows(self: GraderTask) -> int:
    """Delete superseded attempts' node rows, a batch per transaction, for at most
    ``COMPACT_SECONDS`` (the beat sends the next one later); how many went."""
    return compact_for(self.database, self.settings, COMPACT_SECONDS)


COMPACT_SECONDS = 30.0


@app.task(name=SWEEP_TASK, bind=True, base=GraderTask)
def sweep_deliveries(self: GraderTask) -> int:
    """Send every delivery whose next try is due (any message the broker lost; not tried
    again after an error: the beat sends the next sweep soon)."""
    with self.database.sessions() as session:
        ids = due(session)
    return self.jobs().send(DELIVER_TASK, ids)
