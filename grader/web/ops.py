"""Health, readiness and metrics endpoints for the operators.

``/healthz`` says the process answers (no database), ``/readyz`` whether it can serve (the
database and the broker answer, and a grading worker has reported lately), ``/metrics`` the
Prometheus text. None of them needs a
sign-in or a CSRF token: probes and scrapers have neither.
"""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

from flask import Blueprint, Flask, Response
from sqlalchemy import text

from grader import logs, metrics
from grader.models import utcnow
from grader.models.base import aware
from grader.models.submissions import Lane
from grader.services.tasks import GRADING_QUEUES
from grader.services.workers import last_seen
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
        "database": _check(_database_answers),
        "broker": _check(_broker_answers),
        "workers": _check(_grading_worker_seen),
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


def _database_answers() -> None:
    with database().engine.connect() as connection:
        connection.execute(text("SELECT 1"))


def _grading_worker_seen() -> None:
    stale = settings().worker_stale_seconds
    queue = GRADING_QUEUES[Lane.FAST]
    with database().sessions() as session:
        seen = last_seen(session, queue)
    if seen is None:
        raise RuntimeError(f"no worker serving the {queue} queue has ever reported")
    age = utcnow() - aware(seen)
    if age > timedelta(seconds=stale):
        raise RuntimeError(
            f"no worker serving the {queue} queue has reported for {age.total_seconds():.0f} s "
            f"(more than {stale} s): is one running?"
        )


def _broker_answers() -> None:
    current = settings()
    if current.redis_url:
        import redis

        client = redis.Redis.from_url(
            current.redis_url,
            socket_connect_timeout=CHECK_TIMEOUT_SECONDS,
            socket_timeout=CHECK_TIMEOUT_SECONDS,
        )
        try:
            client.ping()
        finally:
            client.close()
        return
    # The SQLite broker needs no server, only a folder where its file can be written.
    folder = current.instance_dir
    if not folder.is_dir():
        raise RuntimeError(f"the broker's folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise RuntimeError(f"the broker's folder {folder} is not writable")


def _describe(error: Exception) -> str:
    """The error's own first line (a driver's message rather than SQLAlchemy's wrapper)."""
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    message = lines[0] if lines else ""
    return f"{type(cause).__name__}: {message}"[:_ERROR_CHARS]
