"""A worker's heartbeat: a thread of the worker's main process records, every
``Settings.heartbeat_seconds``, that the worker is alive and which queues it serves (see
:mod:`grader.services.workers`); ``/readyz`` reads it, and the reaper takes back the runs
of a worker that stopped reporting.

A worker reports, and grades, under a name of this start of it (:func:`name`): Celery's
host name, the main process's id and a random token, fixed before the pool's processes
are forked. A worker killed and started again under the same host name is another worker,
so the runs the killed one held are not mistaken for the new one's.

The thread has a database engine of its own that keeps no connection between beats, so
that nothing of it is shared with the pool's processes forked later.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
from typing import Any

from celery.signals import worker_init, worker_ready, worker_shutdown
from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import NullPool

from grader.config import Settings
from grader.services.workers import record

log = logging.getLogger(__name__)
_stop = threading.Event()
_name: str | None = None


def name(hostname: str | None = None) -> str:
    """This worker's name: fixed when the worker starts (before its pool forks); in a
    process that is no worker, ``hostname`` (or ``worker``) and this process's id."""
    return _name or f"{hostname or 'worker'}/{os.getpid()}"


def beat_forever(settings: Settings, worker: str, queues: list[str]) -> None:
    """Record a heartbeat now and every ``settings.heartbeat_seconds`` until the worker
    stops."""
    engine = create_engine(settings.sqlalchemy_url, poolclass=NullPool)
    sessions = sessionmaker(engine)
    try:
        while True:
            try:
                with sessions() as session:
                    record(session, worker, queues)
            except Exception as error:  # the database is down: try again at the next beat
                log.warning("heartbeat not recorded: %s", type(error).__name__)
            if _stop.wait(settings.heartbeat_seconds):
                return
    finally:
        engine.dispose()


def _settings_of(sender: Any) -> Settings | None:
    settings = getattr(getattr(sender, "app", None), "conf", {}).get("grader_settings")
    return settings if isinstance(settings, Settings) else None


def _named(sender: Any = None, **_kwargs: Any) -> None:
    global _name
    if _settings_of(sender) is None:
        return  # a worker of another app in this process
    hostname = str(getattr(sender, "hostname", "") or "worker")
    _name = f"{hostname}/{os.getpid()}-{secrets.token_hex(3)}"


def _start(sender: Any = None, **_kwargs: Any) -> None:
    settings = _settings_of(sender)
    if settings is None:
        return
    queues = sorted(sender.app.amqp.queues.consume_from)
    _stop.clear()
    threading.Thread(
        target=beat_forever,
        args=(settings, name(getattr(sender, "hostname", None)), queues),
        name="heartbeat",
        daemon=True,
    ).start()


def _stop_beating(**_kwargs: Any) -> None:
    _stop.set()


def install() -> None:
    """Name the worker when it starts, and beat once it is ready (idempotent)."""
    worker_init.connect(_named, dispatch_uid="grader-heartbeat-name")
    worker_ready.connect(_start, dispatch_uid="grader-heartbeat-start")
    worker_shutdown.connect(_stop_beating, dispatch_uid="grader-heartbeat-stop")
