"""Sending jobs to the workers, always after the rows they name are committed.

The message carries only the job's id. When the broker cannot be reached the job stays
queued in the database and the reaper (or, for deliveries, the sweep) sends it again, so no
work is lost: :mod:`grader.services.jobs` says, kind by kind, what finds it.

Each kind of work has a Celery queue of its own, served by workers of its own, so that none
waits behind another: the fast and the slow grading lanes, the outbound deliveries (which
wait on other servers), and the maintenance (the reaper and the deliveries' sweep).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from typing import Any

from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.services.jobs import JobKind, kind_of
from grader.services.tasks import make_producer
from grader.services.unit_of_work import after_commit

log = logging.getLogger(__name__)


class Queue:
    """The way to the workers: Celery, or the work done in this process when tasks are
    eager. Services are handed one as a :class:`grader.services.unit_of_work.Dispatcher`."""

    def __init__(self, settings: Settings, database: Database, celery: Any = None) -> None:
        self.settings = settings
        self.database = database
        self._celery = celery

    @property
    def celery(self) -> Any:
        if self._celery is None:
            self._celery = make_producer(self.settings)
        return self._celery

    def dispatch(self, session: Session, kind: str, ids: Iterable[int]) -> None:
        """Send the task of kind ``kind`` for each id once ``session`` commits (never if it
        rolls back)."""
        kind_of(kind)  # an unknown kind fails here, not after the commit
        ids = list(ids)
        if ids:
            after_commit(session, lambda: self.send(kind, ids))

    def send(self, kind: str, ids: Iterable[int]) -> int:
        """Send the task of kind ``kind`` for each id, now; the number that reached the
        broker (or were done, when tasks are eager)."""
        job = kind_of(kind)
        ids = list(ids)
        if not ids:
            return 0
        if self.settings.eager_tasks:
            work = job.work()
            for job_id in ids:
                work(self.database, self.settings, job_id)
            return len(ids)
        queues: dict[int, str] = {}
        if job.route is not None:
            try:
                with self.database.session() as session:
                    queues = job.route(session, ids)
            except Exception:
                log.exception("database unreachable: %s %s are not sent", job.name, ids)
                return 0
        sent = 0
        for job_id in ids:
            task_id = uuid.uuid4().hex
            try:
                self.celery.send_task(
                    job.name, args=[job_id], task_id=task_id, queue=queues.get(job_id, job.queue)
                )
            except Exception:
                # The rest would wait for the broker too: none of them is sent.
                log.exception(
                    "broker unreachable: %s %s and those after it are not sent (%s)",
                    job.name,
                    job_id,
                    _found_again(job),
                )
                break
            if job.mark_sent is not None:
                with self.database.session() as session:
                    job.mark_sent(session, job_id, task_id)
            sent += 1
        return sent


def _found_again(job: JobKind) -> str:
    return job.unreaped_because or "the reaper sends them again"
