"""A worker's heartbeat: a thread of the worker's main process records, every
``INTERVAL_SECONDS``, that the worker is alive and which queues it serves (see
:mod:`grader.services.workers`); ``/readyz`` reads it.

It has a database engine of its own that keeps no connection between beats, so that
nothing of it is shared with the pool's processes forked later.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from celery.signals import worker_ready, worker_shutdown
from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import NullPool

from grader.config import Settings
from grader.services.workers import record

INTERVAL_SECONDS = 15.0

log = logging.getLogger(__name__)
_stop = threading.Event()


def beat_forever(settings: Settings, hostname: str, queues: list[str]) -> None:
    """Record a heartbeat now and every ``INTERVAL_SECONDS`` until the worker stops."""
    engine = create_engine(settings.sqlalchemy_url, poolclass=NullPool)
    sessions = sessionmaker(engine)
    try:
        while True:
            try:
                with sessions() as session:
                    record(session, hostname, queues)
            except Exception as error:  # the database is down: try again at the next beat
                log.warning("heartbeat not recorded: %s", type(error).__name__)
            if _stop.wait(INTERVAL_SECONDS):
                return
    finally:
        engine.dispose()


def _start(sender: Any = None, **_kwargs: Any) -> None:
    settings = getattr(getattr(sender, "app", None), "conf", {}).get("grader_settings")
    if not isinstance(settings, Settings):
        return  # a worker of another app in this process
    queues = sorted(sender.app.amqp.queues.consume_from)
    hostname = str(getattr(sender, "hostname", "") or "worker")
    _stop.clear()
    threading.Thread(
        target=beat_forever, args=(settings, hostname, queues), name="heartbeat", daemon=True
    ).start()


def _stop_beating(**_kwargs: Any) -> None:
    _stop.set()


def install() -> None:
    """Start the heartbeat when a worker is ready (idempotent)."""
    worker_ready.connect(_start, dispatch_uid="grader-heartbeat-start")
    worker_shutdown.connect(_stop_beating, dispatch_uid="grader-heartbeat-stop")
