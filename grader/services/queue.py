"""Sending grading runs to the workers, always after the rows are committed.

The message carries only the run's id. When the broker cannot be reached the run stays
queued in the database and the reaper sends it again, so no submission is lost.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from typing import Any

from grader.config import Settings
from grader.db import Database
from grader.services.runs import mark_sent

GRADE_TASK = "worker.tasks.grade_run"
REAP_TASK = "worker.tasks.reap_stuck_runs"
DELIVER_TASK = "worker.tasks.deliver"

log = logging.getLogger(__name__)


class Queue:
    """The way to the workers: Celery, or grading in this process when tasks are eager."""

    def __init__(self, settings: Settings, database: Database, celery: Any = None) -> None:
        self.settings = settings
        self.database = database
        self._celery = celery

    @property
    def celery(self) -> Any:
        if self._celery is None:
            from worker.celery_app import make_celery

            self._celery = make_celery(self.settings)
        return self._celery

    def send(self, run_ids: Iterable[int]) -> int:
        """Send each run's task; the number that reached the broker (or were graded)."""
        sent = 0
        for run_id in run_ids:
            if self.settings.eager_tasks:
                from worker.execute import execute_run

                execute_run(self.database, self.settings, run_id, worker="eager", task_id="eager")
                sent += 1
                continue
            task_id = uuid.uuid4().hex
            try:
                self.celery.send_task(GRADE_TASK, args=[run_id], task_id=task_id)
            except Exception:
                # The rest would wait for the broker too: they all stay queued for the reaper.
                log.exception("broker unreachable: run %s and those after it stay queued", run_id)
                break
            with self.database.session() as session:
                mark_sent(session, run_id, task_id)
            sent += 1
        return sent

    def send_deliveries(self, delivery_ids: Iterable[int], countdown: float = 0.0) -> int:
        """Send each outbound delivery's task (the periodic sweep catches any lost)."""
        sent = 0
        for delivery_id in delivery_ids:
            if self.settings.eager_tasks:
                from worker.outbound import deliver_now

                deliver_now(self.database, delivery_id)
                sent += 1
                continue
            try:
                self.celery.send_task(DELIVER_TASK, args=[delivery_id], countdown=countdown)
            except Exception:
                log.exception(
                    "broker unreachable: delivery %s and those after it wait for the sweep",
                    delivery_id,
                )
                break
            sent += 1
        return sent
