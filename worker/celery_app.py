"""The Celery application: ``celery -A worker.celery_app worker``.

Configured from :class:`grader.config.Settings` (Redis when ``GRADER_REDIS_URL`` is set, else
a broker on SQLite that needs no server). Tasks are acknowledged late and requeued when a
worker is lost; the database, not the broker, is the truth about a run.

Each kind of work has a queue of its own (see :mod:`grader.services.tasks`); a worker serves
the queues named by ``-Q`` (all of them without it), and each says it is alive in the
database every few seconds (:mod:`worker.heartbeat`).

A worker refuses to start outside development with a weak hidden-tree key (it would grade
on hidden trees anyone can draw); importing this module, or sending tasks, checks nothing.
"""

from __future__ import annotations

from typing import Any

from celery import Celery
from celery.signals import worker_init

from grader.config import ConfigError, Settings
from grader.logs import install_celery
from grader.services.tasks import COMPACT_TASK, REAP_TASK, SWEEP_TASK, make_producer
from worker import heartbeat

COMPACT_EVERY_SECONDS = 3600.0
"""How often the beat sends the compaction of superseded attempts' node rows (it does
nothing while ``GRADER_NODE_ROWS_KEEP_DAYS`` is 0)."""


def make_celery(settings: Settings | None = None) -> Celery:
    """The worker's app: the grader's producer (:func:`grader.services.tasks.make_producer`)
    with the worker's own settings, its tasks and the beat's schedule."""
    settings = settings or Settings.from_env()
    app = make_producer(settings)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        include=["worker.tasks"],
        beat_schedule={
            "reap-stuck-runs": {
                "task": REAP_TASK,
                "schedule": float(settings.reaper_interval_seconds),
            },
            "sweep-deliveries": {
                "task": SWEEP_TASK,
                "schedule": float(settings.reaper_interval_seconds),
            },
            "compact-node-rows": {"task": COMPACT_TASK, "schedule": COMPACT_EVERY_SECONDS},
        },
    )
    return app


def refuse_unsafe_settings(sender: Any = None, **_kwargs: Any) -> None:
    """Stop a starting worker whose settings are unsafe, with the reason on stderr.

    Celery logs and ignores what a signal handler raises, but SystemExit is not an
    Exception: it ends ``celery worker`` before it connects or grades anything."""
    settings = getattr(getattr(sender, "app", None), "conf", {}).get("grader_settings")
    if not isinstance(settings, Settings):
        return  # a worker of another app in this process
    try:
        settings.checked(needs_secret_key=False, needs_public_url=False)
    except ConfigError as error:
        raise SystemExit(f"the grading worker refuses to start: {error}") from None


worker_init.connect(refuse_unsafe_settings)
heartbeat.install()
install_celery()
app = make_celery()
