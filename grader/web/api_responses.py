"""The JSON API's responses: documents, and problem documents for its errors.

Both the API's blueprint and the app-wide error pages (a 503 under ``/api/`` while the
database is away) answer with problems, so the builder lives here, below both of them.
"""

from __future__ import annotations

import json

from werkzeug.wrappers import Response

from grader.lms.problems import MEDIA_TYPE, Problem
from grader.web import links

API_PATH = "/api/v1"


def json_response(
    document: object, status: int = 200, media_type: str = "application/json"
) -> Response:
    return Response(json.dumps(document, indent=1) + "\n", status=status, mimetype=media_type)


def api_root() -> str:
    """The API's root, on the service's public address (see :mod:`grader.web.links`)."""
    return links.root() + API_PATH


def problem_response(problem: Problem) -> Response:
    """``problem`` as an ``application/problem+json`` response, with its headers."""
    response = json_response(problem.document(api_root()), problem.status, MEDIA_TYPE)
    response.headers.update(problem.headers)
    if problem.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="grader"'
    return response
