"""Sending grading runs to the workers, always after the rows are committed.

The message carries only the run's id. When the broker cannot be reached the run stays
queued in the database and the reaper sends it again, so no submission is lost.

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
from grader.models.submissions import Lane
from grader.services.added_implementations import mark_sent as mark_check_sent
from grader.services.analyses import mark_sent as mark_analysis_sent
from grader.services.runs import lanes, mark_sent
from grader.services.tasks import (
    ANALYSE_TASK,
    CALLBACKS_QUEUE,
    CHECK_ADDED_TASK,
    DELIVER_TASK,
    GRADE_TASK,
    GRADING_QUEUES,
    LINEITEM_TASK,
    MAINTENANCE_QUEUE,
    TASK_QUEUES,
    local_runner,
    make_producer,
)
from grader.services.unit_of_work import after_commit

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
            self._celery = make_producer(self.settings)
        return self._celery

    def send_after_commit(self, session: Session, run_ids: Iterable[int]) -> None:
        """Send each run's task once ``session`` commits the runs (never if it rolls back)."""
        run_ids = list(run_ids)
        if run_ids:
            after_commit(session, lambda: self.send(run_ids))

    def deliver_after_commit(self, session: Session, delivery_ids: Iterable[int]) -> None:
        """Send each delivery's task once ``session`` commits it (never if it rolls back)."""
        delivery_ids = list(delivery_ids)
        if delivery_ids:
            after_commit(session, lambda: self.send_deliveries(delivery_ids))

    def analyse_after_commit(self, session: Session, version_ids: Iterable[int]) -> None:
        """Send each version's analysis task once ``session`` commits its analysis row."""
        version_ids = list(version_ids)
        if version_ids:
            after_commit(session, lambda: self.send_analyses(version_ids))

    def check_added_after_commit(self, session: Session, added_ids: Iterable[int]) -> None:
        """Send the check of each added implementation once ``session`` commits its row."""
        added_ids = list(added_ids)
        if added_ids:
            after_commit(session, lambda: self.send_added_checks(added_ids))

    def read_lineitems_after_commit(self, session: Session, launch_ids: Iterable[int]) -> None:
        """Send the task reading each launch's line item (its due date) once ``session``
        commits the launch."""
        launch_ids = list(launch_ids)
        if launch_ids:
            after_commit(session, lambda: self.send_lineitem_reads(launch_ids))

    def send_lineitem_reads(self, launch_ids: Iterable[int]) -> int:
        """Send each launch's line item reading (one lost is asked for by the next launch);
        the number that reached the broker (or were done, when tasks are eager)."""
        sent = 0
        for launch_id in launch_ids:
            if self.settings.eager_tasks:
                local_runner(LINEITEM_TASK)(self.database, self.settings, launch_id)
                sent += 1
                continue
            try:
                self.celery.send_task(LINEITEM_TASK, args=[launch_id], queue=CALLBACKS_QUEUE)
            except Exception:
                log.exception(
                    "broker unreachable: the line item of launch %s is not read", launch_id
                )
                break
            sent += 1
        return sent

    def send_analyses(self, version_ids: Iterable[int]) -> int:
        """Send each version's analysis task (the reaper sends again any not sent); the
        number that reached the broker (or were done, when tasks are eager)."""
        sent = 0
        for version_id in version_ids:
            if self.settings.eager_tasks:
                local_runner(ANALYSE_TASK)(self.database, self.settings, version_id)
                sent += 1
                continue
            task_id = uuid.uuid4().hex
            try:
                self.celery.send_task(
                    ANALYSE_TASK, args=[version_id], task_id=task_id, queue=MAINTENANCE_QUEUE
                )
            except Exception:
                log.exception(
                    "broker unreachable: analysis %s and those after it wait for the reaper",
                    version_id,
                )
                break
            with self.database.session() as session:
                mark_analysis_sent(session, version_id, task_id)
            sent += 1
        return sent

    def send_added_checks(self, added_ids: Iterable[int]) -> int:
        """Send each added implementation's check; the number that reached the broker (or
        were done, when tasks are eager). One not sent waits until an instructor asks
        again from its page."""
        sent = 0
        for added_id in added_ids:
            if self.settings.eager_tasks:
                local_runner(CHECK_ADDED_TASK)(self.database, self.settings, added_id)
                sent += 1
                continue
            task_id = uuid.uuid4().hex
            try:
                self.celery.send_task(
                    CHECK_ADDED_TASK,
                    args=[added_id],
                    task_id=task_id,
                    queue=TASK_QUEUES[CHECK_ADDED_TASK],
                )
            except Exception:
                log.exception(
                    "broker unreachable: the check of added implementation %s is not sent",
                    added_id,
                )
                break
            with self.database.session() as session:
                mark_check_sent(session, added_id, task_id)
            sent += 1
        return sent

    def send(self, run_ids: Iterable[int]) -> int:
        """Send each run's task to its lane's queue; the number that reached the broker (or
        were graded)."""
        sent = 0
        run_ids = list(run_ids)
        if not run_ids:
            return 0
        lane_of: dict[int, str] = {}
        if not self.settings.eager_tasks:
            try:
                with self.database.session() as session:
                    lane_of = lanes(session, run_ids)
            except Exception:
                log.exception("database unreachable: runs %s stay queued for the reaper", run_ids)
                return 0
        for run_id in run_ids:
            if self.settings.eager_tasks:
                local_runner(GRADE_TASK)(self.database, self.settings, run_id)
                sent += 1
                continue
            task_id = uuid.uuid4().hex
            try:
                queue = GRADING_QUEUES[Lane(lane_of.get(run_id, Lane.FAST))]
                self.celery.send_task(GRADE_TASK, args=[run_id], task_id=task_id, queue=queue)
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
                local_runner(DELIVER_TASK)(self.database, self.settings, delivery_id)
                sent += 1
                continue
            try:
                self.celery.send_task(
                    DELIVER_TASK, args=[delivery_id], countdown=countdown, queue=CALLBACKS_QUEUE
                )
            except Exception:
                log.exception(
                    "broker unreachable: delivery %s and those after it wait for the sweep",
                    delivery_id,
                )
                break
            sent += 1
        return sent
