"""Health, readiness and metrics endpoints for the operators.

``/healthz`` says the process answers (no database), ``/readyz`` whether it can serve (the
database and the broker take a write, an embedded one's disk has room, and a worker of each
grading lane has reported lately), ``/metrics`` the
Prometheus text. None of them needs a
sign-in or a CSRF token: probes and scrapers have neither.
"""

from __future__ import annotations

import os
import shutil
import socket
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response

from grader import logs, metrics
from grader.models import utcnow
from grader.models.base import aware
from grader.services.tasks import GRADING_QUEUES
from grader.services.workers import last_seen, record
from grader.web.context import database, db_session, settings

blueprint = Blueprint("ops", __name__)

CHECK_TIMEOUT_SECONDS = 3
_ERROR_CHARS = 300


def register(app: Flask) -> None:
    """Install the request-id, request log and request metrics hooks (idempotent)."""
    logs.install(app)
    metrics.install(app)


@blueprint.route("/healthz")
def healthz() -> tuple[dict[str, str], int]:
    return {"status": "ok"}, 200


@blueprint.route("/readyz")
def readyz() -> tuple[dict[str, Any], int]:
    checks = {
        "database": _check(_database_writes),
        "broker": _check(_broker_writes),
        "workers": _check(_grading_workers_seen),
    }
    ready = all(check["ok"] for check in checks.values())
    return {"status": "ok" if ready else "unavailable", "checks": checks}, 200 if ready else 503


@blueprint.route("/metrics")
def metrics_text() -> Response:
    body, content_type = metrics.render_metrics(db_session(), settings())
    return Response(body, content_type=content_type)


def _check(probe: Any) -> dict[str, Any]:
    try:
        probe()
    except Exception as error:
        return {"ok": False, "error": _describe(error)}
    return {"ok": True}


def _database_writes() -> None:
    """The database takes a write (this web process's heartbeat, committed), and the disk
    of an embedded one has room for the writes to come: SQLite reuses the space it has, so
    one small write may pass while a submission's does not."""
    with database().sessions() as session:
        record(session, f"web@{socket.gethostname()}/{os.getpid()}", [WEB_QUEUE])
    path = database().engine.url.database
    if database().engine.dialect.name == "sqlite" and path and path != ":memory:":
        _room_on_disk(Path(path).parent, "the database")


WEB_QUEUE = "web"
"""The heartbeat row of the web processes (no Celery queue: no grading worker's)."""


def _room_on_disk(folder: Path, what: str) -> None:
    free = shutil.disk_usage(folder).free
    needed = settings().readiness_min_free_bytes
    if free < needed:
        raise RuntimeError(
            f"the disk of {what} ({folder}) has {free // 2**20} MiB free, less than the "
            f"{needed // 2**20} MiB it needs"
        )


def _grading_workers_seen() -> None:
    """A worker of each grading lane reported within ``worker_stale_seconds``."""
    stale = settings().worker_stale_seconds
    with database().sessions() as session:
        seen = {queue: last_seen(session, queue) for queue in GRADING_QUEUES.values()}
    for queue, when in seen.items():
        if when is None:
            raise RuntimeError(f"no worker serving the {queue} queue has ever reported")
        age = utcnow() - aware(when)
        if age > timedelta(seconds=stale):
            raise RuntimeError(
                f"no worker serving the {queue} queue has reported for "
                f"{age.total_seconds():.0f} s (more than {stale} s): is one running?"
            )


def _broker_writes() -> None:
    """The broker takes a write: Redis refuses them when it cannot persist or is out of
    memory, though it still answers a ping. The embedded broker needs a folder where its
    file can be written, on a disk with room."""
    current = settings()
    if current.redis_url:
        import redis

        client = redis.Redis.from_url(
            current.redis_url,
            socket_connect_timeout=CHECK_TIMEOUT_SECONDS,
            socket_timeout=CHECK_TIMEOUT_SECONDS,
        )
        try:
            client.set(READY_KEY, utcnow().isoformat(), ex=60)
        finally:
            client.close()
        return
    folder = current.instance_dir
    if not folder.is_dir():
        raise RuntimeError(f"the broker's folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise RuntimeError(f"the broker's folder {folder} is not writable")
    _room_on_disk(folder, "the broker")


READY_KEY = "grader:readyz"


def _describe(error: Exception) -> str:
    """The error's own first line (a driver's message rather than SQLAlchemy's wrapper)."""
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    message = lines[0] if lines else ""
    return f"{type(cause).__name__}: {message}"[:_ERROR_CHARS]
