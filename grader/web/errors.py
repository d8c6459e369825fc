"""Readable error pages (never a traceback) for the browser, JSON for the API."""

from __future__ import annotations

import logging

from flask import Flask, render_template, request
from werkzeug.exceptions import HTTPException

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
}


def register(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int]:
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
    def unexpected(error: Exception) -> tuple[str, int]:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return _page(500, "Internal Server Error", EXPLANATIONS[500])


def _page(code: int, title: str, detail: str) -> tuple[str, int]:
    return render_template("errors/error.html", code=code, title=title, detail=detail), code
