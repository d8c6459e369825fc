"""Problems the API answers with (RFC 9457 ``application/problem+json``).

Each kind of problem has a short name; its ``type`` is the URL of the page that explains
it (``/api/v1/problems/<name>``), so that an LMS developer who meets one can look it up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

MEDIA_TYPE = "application/problem+json"


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of problem: its HTTP status, its title and what it means."""

    status: int
    title: str
    explanation: str


KINDS: dict[str, Kind] = {
    "malformed-json": Kind(400, "Malformed JSON", "The body is not a JSON document."),
    "missing-token": Kind(
        401,
        "Missing or invalid API token",
        "Send the integration's API token as `Authorization: Bearer <token>`.",
    ),
    "invalid-signature": Kind(
        401,
        "Invalid signature",
        "The webhook-id, webhook-timestamp and webhook-signature headers are missing, the "
        "timestamp is more than 5 minutes away from the grader's clock, or no signature "
        "matches the body under the integration's signing secret.",
    ),
    "integration-disabled": Kind(
        403, "Integration disabled", "An instructor disabled this integration in the grader."
    ),
    "not-found": Kind(404, "Not found", "There is nothing here, or it is not yours to see."),
    "unknown-exercise": Kind(
        404,
        "Unknown exercise",
        "No published exercise of the integration's course has this slug "
        "(GET /api/v1/exercises lists them).",
    ),
    "method-not-allowed": Kind(405, "Method not allowed", "This URL does not take that method."),
    "callback-disabled": Kind(
        409,
        "Callback URL disabled",
        "The callback_url answered 410 Gone to an earlier callback, so the grader stopped "
        "calling it; the detail says since when. An instructor of the course can enable it "
        'again on the grader\'s delivery page ("Enable this callback URL again"); until '
        "then webhooks naming it are refused and nothing is made.",
    ),
    "too-large": Kind(413, "Too large", "The body or the source code is over the size limit."),
    "unsupported-media-type": Kind(
        415,
        "Unsupported media type",
        "The webhook's body must be a JSON document sent as Content-Type: application/json.",
    ),
    "invalid-body": Kind(
        422,
        "Invalid body",
        "The JSON document does not have the fields the endpoint expects, or a field has the "
        "wrong type (ids are strings: a number or a boolean is refused). The errors member "
        "points at each field (JSON pointers).",
    ),
    "key-reused": Kind(
        422,
        "Idempotency key reused",
        "The webhook-id (the idempotency key: a retry sends the same one) was used before "
        "with a different body. Use a new webhook-id for a new submission.",
    ),
    "callback-refused": Kind(
        422,
        "Callback URL refused",
        "The callback_url must be http or https on one of the integration's allowed hosts, "
        "and its host must resolve to public addresses only.",
    ),
    "too-many-submissions": Kind(
        429,
        "Too many submissions",
        "The student reached the submission rate limit; Retry-After says when to retry.",
    ),
    "too-many-requests": Kind(
        429,
        "Too many requests",
        "The integration sent more signed webhooks than its rate limit allows; Retry-After "
        "says in how many seconds to retry.",
    ),
    "internal-error": Kind(
        500, "Internal error", "Something went wrong on the grader's side; it has been logged."
    ),
    "unavailable": Kind(
        503,
        "Service unavailable",
        "The grader cannot reach its database for a moment, or could not number the "
        "submission beside others of the student's sent at the same moment; nothing was "
        "made. Retry after the seconds Retry-After gives, with the same webhook-id.",
    ),
}

PLAIN = {404: "not-found", 405: "method-not-allowed", 413: "too-large", 500: "internal-error"}
"""Plain HTTP errors that have a kind of their own."""


class Problem(Exception):
    """An answer other than success, raised where it is found and rendered by the API.

    ``kind`` names one of :data:`KINDS`; an empty kind is a plain HTTP error (``type``
    ``about:blank``) with the given ``status`` and ``title``."""

    def __init__(
        self,
        kind: str,
        detail: str = "",
        *,
        headers: dict[str, str] | None = None,
        status: int = 500,
        title: str = "",
        extra: dict[str, Any] | None = None,
    ) -> None:
        known = KINDS.get(kind)
        self.kind = kind
        self.status = known.status if known else status
        self.title = known.title if known else title or HTTPStatus(status).phrase
        self.detail = detail or (known.explanation if known else "")
        self.headers = headers or {}
        self.extra = extra or {}
        """Members added to the document (RFC 9457 extensions, such as ``errors``)."""
        super().__init__(self.detail or self.title)

    def document(self, base_url: str) -> dict[str, Any]:
        """The problem's JSON; ``base_url`` is the API's root (``https://host/api/v1``)."""
        return {
            **self.extra,
            "type": f"{base_url}/problems/{self.kind}" if self.kind else "about:blank",
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
        }


def for_status(status: int, detail: str = "") -> Problem:
    """The problem for a plain HTTP error (an unknown URL, a method not taken...)."""
    kind = PLAIN.get(status, "")
    try:
        HTTPStatus(status)
    except ValueError:
        status = 500
    return Problem(kind, detail, status=status)


@dataclass(frozen=True, slots=True)
class Answer:
    """A successful answer worked out away from Flask: status, JSON, extra headers."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)
