"""The tasks the grader sends to the workers, by name, and how they reach the broker.

The grader never imports the worker: it sends a task by its name through a Celery producer
configured here (broker, queues, routes, publish retries), which ``worker.celery_app``
extends into the worker's own app. When tasks are eager (tests, the command line) the work
is done in this process by the function each kind of job names (:mod:`grader.services.jobs`).
"""

from __future__ import annotations

import logging
import time

from celery import Celery
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from grader.config import Settings
from grader.models.submissions import Lane

log = logging.getLogger(__name__)

GRADE_TASK = "worker.tasks.grade_run"
REAP_TASK = "worker.tasks.reap_stuck_runs"
SWEEP_TASK = "worker.tasks.sweep_deliveries"
DELIVER_TASK = "worker.tasks.deliver"
ANALYSE_TASK = "worker.tasks.analyse_version"
LINEITEM_TASK = "worker.tasks.read_lineitem_due"
CHECK_ADDED_TASK = "worker.tasks.check_added_implementation"
COMPACT_TASK = "worker.tasks.compact_node_rows"

GRADING_QUEUES = {Lane.FAST: "grading", Lane.SLOW: "grading-slow"}
"""The Celery queue of each grading lane."""
CALLBACKS_QUEUE = "callbacks"
MAINTENANCE_QUEUE = "maintenance"
QUEUES = (*GRADING_QUEUES.values(), CALLBACKS_QUEUE, MAINTENANCE_QUEUE)
TASK_QUEUES = {
    GRADE_TASK: GRADING_QUEUES[Lane.FAST],
    DELIVER_TASK: CALLBACKS_QUEUE,
    # A call to the LMS, like the deliveries: it waits on another server.
    LINEITEM_TASK: CALLBACKS_QUEUE,
    REAP_TASK: MAINTENANCE_QUEUE,
    SWEEP_TASK: MAINTENANCE_QUEUE,
    # Superseded attempts' node rows deleted (GRADER_NODE_ROWS_KEEP_DAYS), a batch at a time.
    COMPACT_TASK: MAINTENANCE_QUEUE,
    # Seconds to minutes of work (a large game's expansion) that no student waits for.
    ANALYSE_TASK: MAINTENANCE_QUEUE,
    # An instructor's code, run in the sandbox like a student's: a grading worker's work
    # (the maintenance worker has no sandbox), in the slow lane, beside no student's first
    # answer.
    CHECK_ADDED_TASK: GRADING_QUEUES[Lane.SLOW],
}
"""Where each task goes unless told otherwise (a run goes to its lane's queue)."""


def make_producer(settings: Settings) -> Celery:
    """A Celery app that sends the grader's tasks by name to their queues."""
    if not settings.redis_url:
        settings.instance_dir.mkdir(parents=True, exist_ok=True)
    app = Celery("grader", broker=settings.broker_url, backend=settings.result_backend)
    app.conf.update(
        task_serializer="json",
        accept_content=["json"],
        result_expires=3600,
        task_always_eager=settings.eager_tasks,
        broker_connection_retry_on_startup=True,
        # A broker that is down must not hold a web request for long: the run stays queued
        # in the database and the reaper sends it again.
        broker_connection_timeout=2,
        task_publish_retry_policy={
            "max_retries": 2,
            "interval_start": 0,
            "interval_step": 0.5,
            "interval_max": 1,
        },
        result_backend_transport_options={"retry_policy": {"timeout": 2.0}},
        task_queues={name: {"exchange": name, "routing_key": name} for name in QUEUES},
        task_default_queue=GRADING_QUEUES[Lane.FAST],
        task_routes={task: {"queue": queue} for task, queue in TASK_QUEUES.items()},
        # A broker on SQLite opens a connection per session and closes it: kombu keeps a
        # session per channel and never closes those of channels that failed (a full disk),
        # which exhausted a pool and stopped the worker for good.
        broker_transport_options={} if settings.redis_url else {"poolclass": NullPool},
    )
    app.conf.grader_settings = settings
    if not settings.redis_url and not settings.eager_tasks:
        declare_embedded_queues(app)
    return app


EMBEDDED_DECLARE_ATTEMPTS = 5


def declare_embedded_queues(app: Celery) -> None:
    """Create the embedded broker's tables and queues now, once per process.

    kombu's SQL transport creates them on a process's first message, and a queue's row by
    reading then inserting: gunicorn's processes sending their first runs to a fresh
    broker at the same moment raced, and the loser's run stayed unsent until the reaper
    (``UNIQUE constraint failed: kombu_queue.name``). Whoever loses here tries again and
    finds what the winner made. A broker that cannot be written (a full disk) is left to
    the sends, which keep the runs queued in the database."""
    for attempt in range(1, EMBEDDED_DECLARE_ATTEMPTS + 1):
        try:
            with app.connection_for_write() as connection:
                channel = connection.default_channel
                for queue in app.amqp.queues.values():
                    queue(channel).declare()
            return
        except SQLAlchemyError:
            if attempt == EMBEDDED_DECLARE_ATTEMPTS:
                log.exception("the embedded broker's queues could not be declared")
                return
            time.sleep(0.05 * attempt)
