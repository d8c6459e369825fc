"""The Celery application: ``celery -A worker.celery_app worker``.

Configured from :class:`grader.config.Settings` (Redis when ``GRADER_REDIS_URL`` is set, else
a broker on SQLite that needs no server). Tasks are acknowledged late and requeued when a
worker is lost; the database, not the broker, is the truth about a run.

Each kind of work has a queue of its own (see :mod:`grader.services.queue`); a worker serves
the queues named by ``-Q`` (all of them without it), and each says it is alive in the
database every few seconds (:mod:`worker.heartbeat`).

A worker refuses to start outside development with a weak hidden-tree key (it would grade
on hidden trees anyone can draw); importing this module, or sending tasks, checks nothing.
"""

from __future__ import annotations

from typing import Any

from celery import Celery
from celery.signals import worker_init
from sqlalchemy.pool import NullPool

from grader.config import ConfigError, Settings
from grader.logs import install_celery
from grader.models.submissions import Lane
from grader.services.queue import GRADING_QUEUES, QUEUES, TASK_QUEUES
from worker import heartbeat


def make_celery(settings: Settings | None = None) -> Celery:
    settings = settings or Settings.from_env()
    if not settings.redis_url:
        settings.instance_dir.mkdir(parents=True, exist_ok=True)
    app = Celery("grader", broker=settings.broker_url, backend=settings.result_backend)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
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
        include=["worker.tasks"],
        task_queues={name: {"exchange": name, "routing_key": name} for name in QUEUES},
        task_default_queue=GRADING_QUEUES[Lane.FAST],
        task_routes={task: {"queue": queue} for task, queue in TASK_QUEUES.items()},
        # A broker on SQLite opens a connection per session and closes it: kombu keeps a
        # session per channel and never closes those of channels that failed (a full disk),
        # which exhausted a pool and stopped the worker for good.
        broker_transport_options={} if settings.redis_url else {"poolclass": NullPool},
        beat_schedule={
            "reap-stuck-runs": {
                "task": "worker.tasks.reap_stuck_runs",
                "schedule": float(settings.reaper_interval_seconds),
            },
            "sweep-deliveries": {
                "task": "worker.tasks.sweep_deliveries",
                "schedule": float(settings.reaper_interval_seconds),
            },
        },
    )
    app.conf.grader_settings = settings
    return app


def refuse_unsafe_settings(sender: Any = None, **_kwargs: Any) -> None:
    """Stop a starting worker whose settings are unsafe, with the reason on stderr.

    Celery logs and ignores what a signal handler raises, but SystemExit is not an
    Exception: it ends ``celery worker`` before it connects or grades anything."""
    settings = getattr(getattr(sender, "app", None), "conf", {}).get("grader_settings")
    if not isinstance(settings, Settings):
        return  # a worker of another app in this process
    try:
        settings.checked(needs_secret_key=False)
    except ConfigError as error:
        raise SystemExit(f"the grading worker refuses to start: {error}") from None


worker_init.connect(refuse_unsafe_settings)
heartbeat.install()
install_celery()
app = make_celery()
