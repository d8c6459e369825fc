"""Readable error pages (never a traceback) for the browser, JSON for the API; and 503 with
Retry-After, not 500, while the database cannot be reached."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, current_app, render_template, request
from flask.globals import request_ctx
from sqlalchemy import exc as sa
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers import Response

from grader.lms.problems import Problem
from grader.web.api_responses import problem_response

log = logging.getLogger(__name__)

EXPLANATIONS = {
    400: "The request could not be understood (a form may have expired: reload and retry).",
    401: "You need to sign in.",
    403: "You are not allowed to see this page.",
    404: "There is nothing here.",
    405: "This page does not accept that kind of request.",
    413: "The upload is too large.",
    429: "Too many requests: wait a little and try again.",
    500: "Something went wrong on our side. It has been logged; please try again later.",
    503: "The grader cannot reach its database just now; please try again in a minute.",
}
RETRY_AFTER_SECONDS = 30
"""What a 503 asks clients (and LMS webhook senders) to wait before retrying."""


def register(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        if isinstance(error, InternalServerError) and is_outage(error.original_exception):
            return unavailable(error.original_exception)
        code = error.code or 500
        if code == 413:
            limit = app.extensions["grader.settings"].upload_limit_bytes
            detail = f"The upload is too large: the limit is {limit // 1024} KiB."
        elif code == 400 and error.description:
            detail = str(error.description)
        else:
            detail = EXPLANATIONS.get(code, error.description or "")
        return _page(code, error.name, detail)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Any:
        if is_outage(error):
            return unavailable(error)
        log.exception("unhandled error on %s %s", request.method, request.path)
        return _page(500, "Internal Server Error", EXPLANATIONS[500])


def is_outage(error: BaseException | None) -> bool:
    """Whether ``error`` (or what caused it) says the database cannot be reached: a
    connection refused or lost, a locked SQLite file, a pool with no free connection."""
    for _ in range(5):
        if error is None:
            return False
        if isinstance(error, sa.OperationalError | sa.InterfaceError | sa.TimeoutError):
            return True
        if isinstance(error, sa.DBAPIError) and error.connection_invalidated:
            return True
        error = error.__cause__ or error.__context__
    return False


def unavailable(error: BaseException | None) -> Response:
    """503 with Retry-After: a problem document under /api/, a page elsewhere."""
    log.error("database unavailable on %s %s: %s", request.method, request.path, _first_line(error))
    retry = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if request.path.startswith("/api/"):
        return problem_response(Problem("unavailable", headers=retry))
    page = _plain(503, "Service Unavailable", EXPLANATIONS[503])
    return Response(page, 503, retry, mimetype="text/html")


def _page(code: int, title: str, detail: str) -> tuple[str, int]:
    """The error page; a plain one where the usual page cannot be drawn: before routing
    (an untrusted Host has no URLs to link to) or when drawing it fails (its header asks
    the database who is signed in)."""
    if request_ctx.url_adapter is not None:
        try:
            return render_template("errors/error.html", code=code, title=title, detail=detail), code
        except Exception as error:
            if not is_outage(error):
                log.exception("the %s page could not be drawn", code)
    return _plain(code, title, detail), code


def _plain(code: int, title: str, detail: str) -> str:
    """The plain error page, drawn without Flask's context processors: Flask-Login's
    would load the signed-in user from the database to draw it."""
    template = current_app.jinja_env.get_template("errors/plain.html")
    return template.render(code=code, title=title, detail=detail)


def _first_line(error: BaseException | None) -> str:
    return str(error).strip().splitlines()[0][:300] if error and str(error).strip() else "-"
