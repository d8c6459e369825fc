"""Structured logs: one JSON object per line, with the request, task and submission ids bound.

A request or a task binds its ids once (``with bind(submission_id=42): ...``); every line
logged inside the block carries them, so one submission can be followed from its upload,
through the worker, to its feedback.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from datetime import UTC, datetime
from typing import IO, Any

from flask import Flask, Response, g, request

IdValue = str | int | None

_IDS: dict[str, ContextVar[IdValue]] = {
    name: ContextVar(f"grader_{name}", default=None)
    for name in ("request_id", "task_id", "job_id", "submission_id")
}
# What a LogRecord holds of its own: anything else on a record came from ``extra=``.
_RECORD_FIELDS = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "taskName",
}
_SAFE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
_QUIET_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
"""Polled by probes and scrapers every few seconds: logged at DEBUG, not INFO."""

log = logging.getLogger(__name__)


def current_ids() -> dict[str, str | int]:
    """The ids bound in this context (only those that are known)."""
    return {name: value for name, var in _IDS.items() if (value := var.get()) is not None}


@contextmanager
def bind(**ids: IdValue) -> Iterator[None]:
    """Bind ``request_id``, ``task_id``, ``job_id`` (the row a task works on) and/or
    ``submission_id`` for the block's log lines."""
    unknown = set(ids) - set(_IDS)
    if unknown:
        raise TypeError(f"cannot bind {', '.join(sorted(unknown))}: not a log id")
    tokens: list[tuple[ContextVar[IdValue], Token[IdValue]]] = []
    for name, value in ids.items():
        tokens.append((_IDS[name], _IDS[name].set(value)))
    try:
        yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, bound ids, extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(current_ids())
        for key, value in vars(record).items():
            if key not in _RECORD_FIELDS and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class _JsonHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The handler ``configure_logging`` installs (recognised to replace it, not add one)."""


def configure_logging(level: int | str = "INFO", stream: IO[str] | None = None) -> None:
    """Send every logger's records to ``stream`` (default stderr) as JSON lines.

    Calling it again replaces the handler it installed before rather than adding one.
    """
    root = logging.getLogger()
    for handler in list(root.handlers):
        if isinstance(handler, _JsonHandler):
            root.removeHandler(handler)
    handler = _JsonHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonFormatter())
    root.addHandler(handler)
    root.setLevel(level.upper() if isinstance(level, str) else level)


def request_id_from(header: str | None) -> str:
    """The client's request id when it is a short safe token, else a fresh one."""
    if header and _SAFE_REQUEST_ID.fullmatch(header):
        return header
    return uuid.uuid4().hex


def install(app: Flask) -> None:
    """Give each request an id (``X-Request-ID`` in, and always out) and log one line for it."""
    if app.extensions.get("grader.logs"):
        return
    app.extensions["grader.logs"] = True

    def start() -> None:
        g.request_id = request_id_from(request.headers.get("X-Request-ID"))
        g.request_started = time.perf_counter()
        g.request_log_token = _IDS["request_id"].set(g.request_id)

    def finish(response: Response) -> Response:
        if "request_id" not in g:  # a hook before ours stopped the request
            start()
        response.headers["X-Request-ID"] = g.request_id
        duration_ms = round((time.perf_counter() - g.request_started) * 1000, 2)
        level = logging.DEBUG if request.path in _QUIET_PATHS else logging.INFO
        log.log(
            level,
            "%s %s %s",
            request.method,
            request.path,
            response.status_code,
            extra={
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": duration_ms,
            },
        )
        return response

    def unbind(_error: BaseException | None) -> None:
        token = g.pop("request_log_token", None)
        if token is None:
            return
        try:
            _IDS["request_id"].reset(token)
        except ValueError:  # torn down in another context than it started: forget the id
            _IDS["request_id"].set(None)

    # First of all hooks, so that CSRF or sign-in refusals are logged with the id too.
    app.before_request_funcs.setdefault(None, []).insert(0, start)
    app.after_request(finish)
    app.teardown_request(unbind)


def install_celery() -> None:
    """Make Celery processes log JSON lines instead of configuring their own format.

    Celery leaves logging alone when a receiver is connected to ``setup_logging``; call this
    where the Celery app is built. Connecting twice changes nothing.
    """
    from celery.signals import setup_logging

    setup_logging.connect(celery_setup_logging, weak=False, dispatch_uid=__name__)


def celery_setup_logging(loglevel: int | str | None = None, **_kwargs: Any) -> None:
    """Celery's ``setup_logging`` receiver: JSON lines at the worker's ``--loglevel``."""
    configure_logging(loglevel or "INFO")
