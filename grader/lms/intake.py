"""Submissions an LMS sends: the signed webhook, checked, made idempotent, accepted.

The order matters. Nothing is written before the signature holds; then the request counts
toward the integration's rate limit, and its media type and document are checked. The
idempotency key is the signed ``webhook-id`` and nothing else (an unsigned header would
let anyone replay a captured webhook under a new key). Its receipt, the student, the
submission and its run are written in one transaction: a request that fails anywhere,
the database gone included, leaves nothing, and the LMS's retry with the same webhook is
the first request again. Of two requests with the same key at once, the table's unique
constraint decides: the second waits for the first's transaction, then answers with its
submission (or goes on, if the first wrote nothing).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from grader.config import Settings
from grader.lms import callbacks, endpoints
from grader.lms.integrations import verifying_secrets
from grader.lms.problems import Problem
from grader.lms.urls import check_callback_url
from grader.models import (
    Exercise,
    Integration,
    LmsSubmission,
    Membership,
    Role,
    Submission,
    User,
    WebhookReceipt,
    utcnow,
)
from grader.models.base import aware
from grader.services import identities
from grader.services.results import load_report
from grader.services.submissions import SubmissionRefused, decode_source, submit

log = logging.getLogger(__name__)

BODY_MARGIN = 16 * 1024
"""Bytes a webhook body may have beyond twice the upload limit: JSON escapes make source
code longer (quotes, new lines, tabs), and the other fields need some room. The limit
belongs in :class:`grader.config.Settings` as ``webhook_body_limit_bytes``."""
KEY_LENGTH = 200
MEDIA_TYPE = "application/json"
SIGNATURE_HEADERS = ("webhook-id", "webhook-timestamp", "webhook-signature")

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


def body_limit(settings: Settings) -> int:
    """The most bytes a webhook body may have."""
    return 2 * settings.upload_limit_bytes + BODY_MARGIN


class LmsUser(BaseModel):
    """The student as the LMS knows them (strict: an id is a string, never a number or a
    boolean turned into one)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    id: Annotated[Text, Field(max_length=300)]
    name: Annotated[Text, Field(max_length=200)]
    email: Annotated[str, StringConstraints(strip_whitespace=True, max_length=254)] | None = None

    @property
    def external_id(self) -> str:
        return str(self.id)


class SubmissionBody(BaseModel):
    """The webhook's JSON document (fields not listed here are refused: a misspelt
    ``callback_url`` would otherwise lose the results quietly)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    exercise: Annotated[Text, Field(max_length=100)]
    user: LmsUser
    context_id: Annotated[str, StringConstraints(strip_whitespace=True, max_length=300)]
    source: str
    filename: Annotated[str, StringConstraints(strip_whitespace=True, max_length=200)] | None = None
    callback_url: Annotated[Text, Field(max_length=2000)] | None = None


@dataclass(frozen=True, slots=True)
class Accepted:
    """A webhook's submission; ``run_id`` is the run to send (None on a replay)."""

    submission_id: int
    run_id: int | None

    @property
    def replay(self) -> bool:
        return self.run_id is None


def verify(
    integration: Integration, body: bytes, headers: dict[str, str], now: datetime | None = None
) -> None:
    """Problem ``invalid-signature`` unless the headers sign ``body`` under one of the
    integration's secrets within the 5 minutes the Standard Webhooks library allows."""
    missing = [name for name in SIGNATURE_HEADERS if not headers.get(name)]
    if missing:
        raise Problem("invalid-signature", f"missing header(s): {', '.join(missing)}")
    if not headers["webhook-timestamp"].strip().isdigit():
        raise Problem("invalid-signature", "webhook-timestamp must be whole seconds since 1970")
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        raise Problem("malformed-json", "the body is not UTF-8 text") from None
    reason = "no signature matches the body"
    for secret in verifying_secrets(integration, now):
        try:
            Webhook(secret).verify(body, headers, json_parse=False)
            return
        except WebhookVerificationError as error:
            said = str(error).lower()
            if "timestamp" in said or "headers" in said:
                raise Problem(
                    "invalid-signature",
                    "webhook-timestamp is more than 5 minutes from the grader's clock",
                ) from None
        except ValueError:  # a signature that is not "v1,<base64>"
            reason = "webhook-signature is not a list of v1,<base64> signatures"
    raise Problem("invalid-signature", reason)


def parse(body: bytes) -> SubmissionBody:
    """The webhook's document, or Problem ``malformed-json`` / ``invalid-body``."""
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):
        raise Problem("malformed-json", "the body is not a JSON document") from None
    if not isinstance(document, dict):
        raise Problem("invalid-body", "the body must be a JSON object")
    try:
        return SubmissionBody.model_validate(document)
    except ValidationError as error:
        raise Problem("invalid-body", _explain(error), extra={"errors": _located(error)}) from None


def _explain(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:10]:
        where = ".".join(str(step) for step in item["loc"] if not isinstance(step, int))
        parts.append(f"{where or 'body'}: {item['msg']}")
    return "; ".join(parts)


def _located(error: ValidationError) -> list[dict[str, str]]:
    """Each error with a JSON pointer to where it is (RFC 9457's ``errors`` member)."""
    return [
        {
            "pointer": "#/" + "/".join(str(step) for step in item["loc"]),
            "detail": item["msg"],
        }
        for item in error.errors()[:10]
    ]


def require_json(headers: dict[str, str]) -> None:
    """Problem ``unsupported-media-type`` unless the body is declared ``application/json``."""
    given = headers.get("content-type", "")
    if given.split(";")[0].strip().lower() != MEDIA_TYPE:
        said = f"Content-Type {given[:100]!r}" if given else "no Content-Type"
        raise Problem(
            "unsupported-media-type",
            f"the body must be sent as Content-Type: {MEDIA_TYPE} (the request has {said})",
            headers={"Accept-Post": MEDIA_TYPE},
        )


def idempotency_key(headers: dict[str, str]) -> str:
    """The signed ``webhook-id``: a retry of a webhook sends the same one. (An
    ``Idempotency-Key`` header is ignored: it is not signed, so anyone holding a captured
    webhook could make it new by changing it.)"""
    key = (headers.get("webhook-id") or "").strip()
    if not key:
        raise Problem("invalid-signature", "missing header: webhook-id")
    if len(key) > KEY_LENGTH:
        raise Problem("invalid-body", f"webhook-id is over {KEY_LENGTH} characters")
    return key


def accept(
    session: Session,
    settings: Settings,
    integration: Integration,
    body: bytes,
    headers: dict[str, str],
    now: datetime | None = None,
    *,
    count: Callable[[Integration], None] | None = None,
) -> Accepted:
    """The submission a signed webhook asks for (committed; send ``run_id`` afterwards).

    ``headers`` have lower-case names. ``count`` is called once the signature holds (the
    integration's rate limit: it raises Problem when the integration is over it). Raises
    Problem for everything that is not accepted.
    """
    if not integration.enabled:
        raise Problem("integration-disabled")
    verify(integration, body, headers, now)
    if count is not None:
        count(integration)
    key = idempotency_key(headers)
    require_json(headers)
    document = parse(body)
    digest = hashlib.sha256(body).hexdigest()
    earlier = _receipt(session, integration.id, key)
    if earlier is not None and earlier.submission_id is not None:
        return _replay(earlier, digest)
    exercise = _exercise(session, integration, document.exercise)
    source = _source(document.source, settings)
    if document.callback_url is not None:
        # Read at each call: tests and closed networks switch it on for callbacks too.
        reason = check_callback_url(
            document.callback_url, list(integration.allowed_hosts), callbacks.ALLOW_PRIVATE
        )
        if reason is not None:
            raise Problem("callback-refused", f"callback_url refused: {reason}")
        gone = endpoints.disabled(session, integration.id, document.callback_url)
        if gone is not None:
            raise Problem("callback-disabled", endpoints.why(gone))
    try:
        accepted = _receive(session, settings, integration, document, exercise, source, key,
                            digest, earlier, now)  # fmt: skip
    except IntegrityError:
        # Another request with this key committed first: its answer is this one's.
        session.rollback()
        earlier = _receipt(session, integration.id, key)
        if earlier is None:
            raise
        return _replay(earlier, digest)
    except SubmissionRefused as error:
        session.rollback()
        raise _refusal(error, now) from None
    except BaseException:
        session.rollback()
        raise
    log.info(
        "integration %s: webhook %s became submission %s", integration.id, key,
        accepted.submission_id,
    )  # fmt: skip
    return accepted


def _receive(
    session: Session,
    settings: Settings,
    integration: Integration,
    document: SubmissionBody,
    exercise: Exercise,
    source: str,
    key: str,
    digest: str,
    earlier: WebhookReceipt | None,
    now: datetime | None,
) -> Accepted:
    """The receipt, the student, the submission and its run, committed together; raises
    IntegrityError when another request committed a receipt with the same key first."""
    if earlier is not None:
        # Written without its submission by an earlier version of the service, whose
        # request died: this one takes its place.
        session.delete(earlier)
        session.flush()
    receipt = WebhookReceipt(integration_id=integration.id, key=key, body_hash=digest)
    session.add(receipt)
    # Here a request holding the same key makes this one wait (PostgreSQL's unique index,
    # SQLite's one writer), and raises IntegrityError once that one has committed.
    session.flush()
    user = _student(session, integration, document.user)
    submission = submit(
        session,
        settings,
        user,
        exercise,
        document.filename or f"{exercise.slug}.py",
        source,
        origin="lms",
        now=now,
    )
    session.add(
        LmsSubmission(
            submission_id=submission.id,
            integration_id=integration.id,
            context_id=document.context_id,
            callback_url=document.callback_url,
            lms_user_id=document.user.external_id,
            webhook_id=key,
        )
    )
    receipt.submission_id = submission.id
    run_id = submission.runs[0].id
    session.commit()
    assert run_id is not None
    return Accepted(submission.id, run_id)


def _receipt(session: Session, integration_id: int, key: str) -> WebhookReceipt | None:
    return session.scalar(
        select(WebhookReceipt).where(
            WebhookReceipt.integration_id == integration_id, WebhookReceipt.key == key
        )
    )


def _replay(receipt: WebhookReceipt, digest: str) -> Accepted:
    if receipt.body_hash != digest:
        raise Problem(
            "key-reused",
            "this idempotency key was used before with a different body; "
            "use a new key for a new submission",
        )
    assert receipt.submission_id is not None
    return Accepted(receipt.submission_id, None)


def _exercise(session: Session, integration: Integration, slug: str) -> Exercise:
    exercise = session.scalar(
        select(Exercise).where(
            Exercise.course_id == integration.course_id,
            Exercise.slug == slug,
            Exercise.published.is_(True),
        )
    )
    if exercise is None or exercise.current_version_id is None:
        raise Problem("unknown-exercise", f"no published exercise {slug!r} in this course")
    return exercise


def _source(text: str, settings: Settings) -> str:
    try:
        return decode_source(text.encode("utf-8", "surrogatepass"), settings.upload_limit_bytes)
    except SubmissionRefused as error:
        if error.status == 413:
            raise Problem("too-large", f"source: {error.message}") from None
        raise Problem("invalid-body", f"source: {error.message}") from None


def _refusal(error: SubmissionRefused, now: datetime | None) -> Problem:
    wait = 1
    if error.retry_at is not None:
        seconds = (aware(error.retry_at) - (now or utcnow())).total_seconds()
        wait = max(1, math.ceil(seconds))
    if error.status == 429:
        return Problem("too-many-submissions", error.message, headers={"Retry-After": str(wait)})
    if error.status == 503:  # the student's submissions at the same moment took its numbers
        return Problem("unavailable", error.message, headers={"Retry-After": str(wait)})
    if error.status == 404:
        return Problem("unknown-exercise", error.message)
    return Problem("invalid-body", error.message)


# The student.


def _student(session: Session, integration: Integration, person: LmsUser) -> User:
    """The user behind the LMS's user id, made on first sight (with an address that cannot
    receive mail: an LMS never takes a real account's address), enrolled in the course."""
    for _ in range(2):
        try:
            with session.begin_nested():
                user = identities.lms_user(
                    session,
                    namespace=f"integration:{integration.id}",
                    subject=person.external_id,
                    name=person.name,
                    email=person.email,
                )
        except IntegrityError:
            # Another request met the same student at the same moment and won: only the
            # savepoint is undone, and the next look finds that request's user.
            continue
        _enrol(session, user, integration.course_id)
        return user
    raise RuntimeError(f"could not record the LMS user {person.external_id!r}")


def _enrol(session: Session, user: User, course_id: int) -> None:
    found = session.scalar(
        select(Membership.id).where(
            Membership.user_id == user.id, Membership.course_id == course_id
        )
    )
    if found is None:
        session.add(Membership(user_id=user.id, course_id=course_id, role=Role.STUDENT))
        session.flush()


def submission_of(session: Session, integration: Integration, submission_id: int) -> Submission:
    """A submission that came through ``integration``, or Problem ``not-found``."""
    origin = session.get(LmsSubmission, submission_id)
    submission = session.get(Submission, submission_id)
    if origin is None or submission is None or origin.integration_id != integration.id:
        raise Problem("not-found", f"no submission {submission_id} of this integration")
    return submission


def status_document(session: Session, submission: Submission, exercise_slug: str) -> dict[str, Any]:
    """What the API says about a submission: its latest run, and its stored report once
    graded (a report's JSON document, :mod:`reference.report`)."""
    run = submission.latest_run
    # First: the run's state and result are read again with its report, together.
    report = None if run is None else load_report(session, run)
    document: dict[str, Any] = {
        "submission_id": submission.id,
        "exercise": exercise_slug,
        "attempt": submission.attempt,
        "created_at": aware(submission.created_at).isoformat(),
        "status": run.state if run is not None else None,
        "verdict": run.verdict if run is not None else None,
        "score": run.score if run is not None else None,
        "max_score": run.max_score if run is not None else None,
        "report": None,
    }
    if report is not None:
        document["report"] = report.to_json()
    return document
