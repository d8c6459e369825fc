"""The JSON API for learning management systems, under ``/api/v1``.

Every request carries the integration's API token (``Authorization: Bearer <token>``); the
submission webhook is also signed the Standard Webhooks way with the integration's secret,
and the signed ones count toward the integration's rate limit. Every error is an
``application/problem+json`` document, never an HTML page.
"""

from __future__ import annotations

import json
import logging
import math
import time
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, current_app, request
from limits import parse_many
from sqlalchemy import select
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound, RequestEntityTooLarge
from werkzeug.wrappers import Response

from grader.lms import intake
from grader.lms.integrations import by_token
from grader.lms.problems import KINDS, Problem, for_status
from grader.models import Exercise, Integration
from grader.services.exercise_store import outline_version
from grader.services.tasks import GRADE_TASK
from grader.web import errors, links
from grader.web.api_responses import API_PATH, api_root, json_response, problem_response
from grader.web.context import db_session, queue, settings
from grader.web.limits import limiter
from reference.report import SCHEMA_PATH, report_schema

blueprint = Blueprint("api", __name__)

log = logging.getLogger(__name__)

PREFIX = "/api/"
OPENAPI = Path(__file__).resolve().parent / "static" / "openapi.json"


# Errors: problem documents for everything under /api/.


@blueprint.errorhandler(Problem)
def _problem(problem: Problem) -> Response:
    return problem_response(problem)


@blueprint.errorhandler(HTTPException)
def _http_error(error: HTTPException) -> Response:
    detail = ""
    if isinstance(error, RequestEntityTooLarge):
        detail = f"the body is over {intake.body_limit(settings()):,} bytes"
    return problem_response(for_status(error.code or 500, detail))


@blueprint.errorhandler(Exception)
def _unexpected(error: Exception) -> Response:
    if errors.is_outage(error):
        return errors.unavailable(error)  # the LMS retries the same webhook later
    log.exception("unhandled error on %s %s", request.method, request.path)
    return problem_response(Problem("internal-error"))


@blueprint.record_once
def _routing_errors(state: Any) -> None:
    """Unknown URLs and methods under /api/ never reach the blueprint (routing failed
    first), so the app's handlers for them answer with problems there and leave every
    other path to the handler that would have answered without these."""
    app: Flask = state.app

    def handle(error: HTTPException) -> Any:
        if request.path.startswith(PREFIX):
            return problem_response(for_status(error.code or 500))
        return _usual_handler(app, error)

    app.register_error_handler(NotFound, handle)
    app.register_error_handler(MethodNotAllowed, handle)


def _usual_handler(app: Flask, error: HTTPException) -> Any:
    """What the blueprints' or the app's handlers by exception class make of ``error``
    (Flask would have chosen them had no handler for its code been registered)."""
    for name in (*request.blueprints, None):
        handlers = app.error_handler_spec[name][None]
        for cls in type(error).__mro__:
            handler = handlers.get(cls)
            if handler is not None:
                return handler(error)
    return error


# Who is asking.


def _integration() -> Integration:
    """The integration whose token the request carries (401 / 403 problems otherwise)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem("missing-token", "send the API token as Authorization: Bearer <token>")
    integration = by_token(db_session(), token.strip())
    if integration is None:
        raise Problem("missing-token", "the API token is not valid")
    if not integration.enabled:
        raise Problem("integration-disabled")
    return integration


def _count(integration: Integration) -> None:
    """Count a signed webhook toward its integration's rate limit (``integration_limits``,
    in the limiter's storage: Redis when configured); Problem ``too-many-requests`` with
    Retry-After when the integration is over it."""
    if not limiter.enabled:
        return
    key = (current_app.config.get("RATELIMIT_KEY_PREFIX", ""), "integration", str(integration.id))
    for item in parse_many(settings().integration_limits):
        try:
            if limiter.limiter.hit(item, *key):
                continue
            reset = limiter.limiter.get_window_stats(item, *key).reset_time
        except Exception:  # the limits' storage is down: the webhook is not refused for it
            log.exception("integration %s: its rate limit could not be counted", integration.id)
            return
        wait = max(1, math.ceil(reset - time.time()))
        raise Problem(
            "too-many-requests",
            f"this integration sent more than {item} signed webhooks; retry in {wait} s",
            headers={"Retry-After": str(wait)},
        )


# The endpoints.


@blueprint.post("/lms/submissions")
def submit_from_lms() -> Response:
    """A signed submission from the LMS: 202 with the submission's status URL."""
    integration = _integration()
    limit = intake.body_limit(settings())
    # One byte over the limit is read: a streamed (chunked) body is cut at the request's
    # limit without an error, so being over is seen here.
    request.max_content_length = limit + 1
    body = request.get_data(cache=False)
    if len(body) > limit:
        raise RequestEntityTooLarge()
    headers = {name.lower(): value for name, value in request.headers.items()}
    accepted = intake.accept(db_session(), settings(), integration, body, headers, count=_count)
    if accepted.run_id is not None:
        queue().dispatch(db_session(), GRADE_TASK, [accepted.run_id])
    status_url = links.external_url("api.submission", submission_id=accepted.submission_id)
    response = json_response(
        {"submission_id": accepted.submission_id, "status_url": status_url}, 202
    )
    response.headers["Location"] = status_url
    return response


@blueprint.get("/submissions/<int:submission_id>")
def submission(submission_id: int) -> Response:
    """A submission of the token's integration: its status, and its report once graded."""
    integration = _integration()
    session = db_session()
    found = intake.submission_of(session, integration, submission_id)
    slug = session.scalar(select(Exercise.slug).where(Exercise.id == found.exercise_id))
    return json_response(intake.status_document(session, found, slug or ""))


@blueprint.get("/exercises")
def exercises() -> Response:
    """The published exercises of the integration's course."""
    integration = _integration()
    session = db_session()
    found = session.scalars(
        select(Exercise)
        .where(Exercise.course_id == integration.course_id, Exercise.published.is_(True))
        .order_by(Exercise.slug)
    )
    listed: list[dict[str, Any]] = []
    for exercise in found:
        if exercise.current_version is None:
            continue
        model = outline_version(settings(), exercise.slug, exercise.current_version).rules
        listed.append(
            {
                "slug": exercise.slug,
                "title": exercise.title,
                "algorithm": model.algorithm,
                "max_score": model.scoring.total,
            }
        )
    return json_response({"exercises": listed})


@blueprint.get("/openapi.json")
def openapi() -> Response:
    """This API's OpenAPI 3.1 description. Its server comes from the configuration
    (``public_url``), never from the request's Host header; without it, a relative URL."""
    document = json.loads(OPENAPI.read_text(encoding="utf-8"))
    public_url = settings().public_url
    document["servers"] = [{"url": (public_url.rstrip("/") + API_PATH) if public_url else API_PATH}]
    return json_response(document)


@blueprint.get(SCHEMA_PATH.removeprefix(API_PATH))
def report_schema_document() -> Response:
    """The JSON Schema of the grading report (``report`` of a submission and of a callback),
    generated from :class:`reference.report.Report`. The URL names the schema's version."""
    return json_response(report_schema(), media_type="application/schema+json")


@blueprint.get("/problems/<name>")
def problem_kind(name: str) -> Response:
    """What a problem ``type`` means."""
    kind = KINDS.get(name)
    if kind is None:
        raise Problem("not-found", f"no problem type {name!r}")
    return json_response(
        {
            "type": f"{api_root()}/problems/{name}",
            "title": kind.title,
            "status": kind.status,
            "explanation": kind.explanation,
        }
    )
