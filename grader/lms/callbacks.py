"""Result callbacks: the ``submission.graded`` / ``submission.failed`` events, signed the
Standard Webhooks way and posted to the callback URL an LMS gave with the submission.

Importing this module registers the event maker (a finished run of a submission with a
callback URL becomes a :class:`~grader.models.Delivery`) and the sender (one signed POST);
:mod:`grader.services.deliveries` stores each attempt and plans the retries.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections import Counter
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from sqlalchemy import select
from sqlalchemy.orm import Session
from standardwebhooks.webhooks import Webhook

from grader.config import Settings
from grader.lms import endpoints
from grader.lms.urls import Refusal, Target, inspect_callback_url
from grader.models import (
    Delivery,
    DeliveryKind,
    DeliveryState,
    Exercise,
    GradingRun,
    Integration,
    LmsSubmission,
    RunState,
    Submission,
    utcnow,
)
from grader.models.submissions import SubmissionKind
from grader.services.deliveries import (
    DeliveryOutcome,
    register_event_maker,
    register_grade_event_maker,
    register_sender,
)
from grader.services.grades import StudentGrade, grade_json
from grader.services.results import load_report
from reference.report import Report, RunVerdict

log = logging.getLogger(__name__)

EVENTS: dict[str, str] = {RunState.GRADED: "submission.graded", RunState.ERROR: "submission.failed"}
MAX_REPORT_BYTES = 256 * 1024
"""A report larger than this (as JSON) is sent without its node lists and replays."""
BULKY = ("nodes", "replay")
"""The parts of a tree's report that grow with the tree (left out of a large report; the
nodes left out are counted by verdict in ``nodes_omitted``)."""
USER_AGENT = "gametree-grader-callbacks/1"
_SETTINGS = Settings.from_env()  # the sender is called without settings (a plugin)
ALLOW_PRIVATE = _SETTINGS.callbacks_allow_private
"""Call loopback and private addresses too (tests and closed networks only)."""
TIMEOUTS = (_SETTINGS.callback_connect_seconds, _SETTINGS.callback_read_seconds)
"""``requests``' (connect, read) timeouts: a slow receiver holds a delivery worker for
seconds, never for long (``GRADER_CALLBACK_CONNECT_SECONDS``, ``..._READ_SECONDS``)."""
MAX_ADDRESSES = 3
"""Addresses of the host tried in turn at most, which bounds one attempt's time (well
inside :data:`grader.services.deliveries.LEASE`)."""
MAX_RETRY_AFTER = 10 * 365 * 24 * 3600.0
"""Seconds: a longer ``Retry-After`` is read as this (the retry window decides anyway)."""
_SECONDS = re.compile(r"[0-9]{1,30}")
VERIFY_TLS: bool | str = True
"""``requests``' ``verify``: True (the system's CAs), or a CA bundle's path (tests)."""


def new_message_id() -> str:
    """A ``webhook-id``: the same on every attempt, so that receivers can deduplicate."""
    return "msg_" + secrets.token_urlsafe(18)


def report_url(submission_id: int) -> str:
    return f"/api/v1/submissions/{submission_id}"


def _size(document: object) -> int:
    return len(json.dumps(document, separators=(",", ":")).encode())


def _fitted(report: Report, submission_id: int) -> tuple[dict[str, Any], str | None]:
    """``report``'s document when it fits the limit, else a smaller report's and what was
    left out. Either is a report's document (:mod:`reference.report`)."""
    document = report.to_json()
    if _size(document) <= MAX_REPORT_BYTES:
        return document, None
    cases = []
    for case in document["cases"]:
        counts = Counter(node["verdict"] for node in case.get("nodes") or [])
        counts.update(case.get("nodes_omitted") or {})
        case = {key: value for key, value in case.items() if key not in BULKY}
        if counts:
            case["nodes_omitted"] = dict(counts)
        cases.append(case)
    smaller = Report.model_validate({**document, "cases": cases})
    link = report_url(submission_id)
    if _size(smaller.to_json()) <= MAX_REPORT_BYTES:
        return smaller.to_json(), (
            f"node lists and search replays omitted (the report is over {MAX_REPORT_BYTES} "
            f"bytes): {link}"
        )
    smaller.cases = []
    return smaller.to_json(), f"trees omitted (the report is over {MAX_REPORT_BYTES} bytes): {link}"


def _timestamp(moment: datetime | None) -> str:
    moment = moment or utcnow()
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def callback_payload(
    session: Session,
    run: GradingRun,
    submission: Submission,
    event: str,
    origin: LmsSubmission | None = None,
) -> dict[str, Any]:
    """The event's JSON: its type, when it happened, the submission and the run's stored
    report, and what the LMS sent the submission with (its user id, its context, its
    webhook-id)."""
    report = load_report(session, run)
    if report is None:  # a run that ended in internal_error before any report
        report = Report(
            exercise=run.version.exercise.slug,
            verdict=RunVerdict(run.verdict or RunVerdict.INTERNAL_ERROR),
            score=None,
            max_score=None,
            message=run.message or "",
            cases=[],
        )
    document, omitted = _fitted(report, submission.id)
    data: dict[str, Any] = {
        "submission_id": submission.id,
        "attempt": submission.attempt,
        "status": run.state,
        "user_id": origin.lms_user_id if origin is not None else None,
        "context_id": (origin.context_id or None) if origin is not None else None,
        "webhook_id": origin.webhook_id if origin is not None else None,
        "report": document,
    }
    if omitted is not None:
        data["report_truncated"] = omitted
        data["report_url"] = report_url(submission.id)
    return {"type": event, "timestamp": _timestamp(run.finished_at), "data": data}


def make_callbacks(session: Session, run: GradingRun) -> list[Delivery]:
    """The callback a finished run calls for: none unless its submission came with a URL."""
    event = EVENTS.get(run.state)
    origin = session.get(LmsSubmission, run.submission_id)
    if event is None or origin is None or not origin.callback_url:
        return []
    integration = session.get(Integration, origin.integration_id)
    if integration is None or not integration.enabled:
        log.info("submission %s: no callback, its integration is disabled", run.submission_id)
        return []
    submission = session.get(Submission, run.submission_id)
    assert submission is not None
    delivery = Delivery(
        kind=DeliveryKind.CALLBACK,
        event=event,
        message_id=new_message_id(),
        integration_id=integration.id,
        submission_id=submission.id,
        run_id=run.id,
        url=origin.callback_url,
        payload=callback_payload(session, run, submission, event, origin),
    )
    gone = endpoints.disabled(session, integration.id, origin.callback_url)
    if gone is not None:
        # Accepted before its endpoint was disabled: in the log as failed, never sent, so
        # that an instructor sees it and can send it again once the URL is enabled.
        delivery.state = DeliveryState.FAILED
        delivery.next_attempt_at = None
        delivery.last_error = f"not sent: the endpoint is disabled ({gone.disabled_reason})"
        log.info("submission %s: no callback, %s", run.submission_id, delivery.last_error)
    session.add(delivery)
    return [delivery]


GRADE_EVENT = "grade.changed"


def latest_origin(session: Session, exercise_id: int, user_id: int) -> LmsSubmission | None:
    """Where the student's latest attempt from an LMS with a callback URL came from."""
    return session.scalar(
        select(LmsSubmission)
        .join(Submission, Submission.id == LmsSubmission.submission_id)
        .where(
            Submission.exercise_id == exercise_id,
            Submission.user_id == user_id,
            Submission.kind == SubmissionKind.ATTEMPT,
            LmsSubmission.callback_url.is_not(None),
        )
        .order_by(Submission.id.desc())
        .limit(1)
    )


def grade_payload(
    exercise: Exercise, grade: StudentGrade, origin: LmsSubmission, reason: str
) -> dict[str, Any]:
    """The ``grade.changed`` event: the student's grade now, why it changed, and what the
    LMS sent their latest submission with."""
    return {
        "type": GRADE_EVENT,
        "timestamp": _timestamp(None),
        "data": {
            "submission_id": origin.submission_id,
            "exercise": exercise.slug,
            "reason": reason,
            "user_id": origin.lms_user_id,
            "context_id": origin.context_id or None,
            "webhook_id": origin.webhook_id,
            "grade": grade_json(grade),
        },
    }


def make_grade_callbacks(
    session: Session, exercise: Exercise, grade: StudentGrade, reason: str
) -> list[Delivery]:
    """The ``grade.changed`` callback a changed grade calls for: to the callback URL of the
    student's latest attempt that came with one (none: no callback)."""
    origin = latest_origin(session, exercise.id, grade.user_id)
    if origin is None or not origin.callback_url:
        return []
    integration = session.get(Integration, origin.integration_id)
    if integration is None or not integration.enabled:
        return []
    delivery = Delivery(
        kind=DeliveryKind.CALLBACK,
        event=GRADE_EVENT,
        message_id=new_message_id(),
        integration_id=integration.id,
        submission_id=origin.submission_id,
        url=origin.callback_url,
        payload=grade_payload(exercise, grade, origin, reason),
    )
    gone = endpoints.disabled(session, integration.id, origin.callback_url)
    if gone is not None:
        delivery.state = DeliveryState.FAILED
        delivery.next_attempt_at = None
        delivery.last_error = f"not sent: the endpoint is disabled ({gone.disabled_reason})"
    session.add(delivery)
    return [delivery]


def retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds asked for by a ``Retry-After`` header (delay in seconds or an HTTP date),
    at most :data:`MAX_RETRY_AFTER`; None for anything else (a negative number, garbage).
    The receiver's header is read defensively: whatever it says, this never raises."""
    if not value:
        return None
    value = value.strip()
    if _SECONDS.fullmatch(value):
        return min(float(value), MAX_RETRY_AFTER)
    if len(value) > 100:
        return None
    try:
        moment = parsedate_to_datetime(value)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        seconds = (moment - (now or utcnow())).total_seconds()
    except (TypeError, ValueError, OverflowError, IndexError):
        return None
    return min(max(0.0, seconds), MAX_RETRY_AFTER)


def signature(integration: Integration, message_id: str, moment: datetime, body: str) -> str:
    """The ``webhook-signature`` header: the current secret's signature, and the previous
    secret's too while a rotation's overlap lasts (receivers accept either)."""
    signatures = [Webhook(integration.secret).sign(message_id, moment, body)]
    until = integration.previous_secret_until
    if integration.previous_secret and until is not None:
        if until.tzinfo is None:
            until = until.replace(tzinfo=UTC)
        if until > moment:
            signatures.append(Webhook(integration.previous_secret).sign(message_id, moment, body))
    return " ".join(signatures)


class _PinnedAdapter(HTTPAdapter):
    """Connects to an address that was checked, while TLS still checks the host's name."""

    def __init__(self, host: str) -> None:
        self._host = host  # read by init_poolmanager, which the base __init__ calls
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["server_hostname"] = self._host
        kwargs["assert_hostname"] = self._host
        super().init_poolmanager(*args, **kwargs)


def _address_url(target: Target, address: str) -> str:
    literal = address.replace("%", "%25")
    if ":" in literal:
        literal = f"[{literal}]"
    return f"{target.scheme}://{literal}:{target.port}{target.path}"


def post(target: Target, body: bytes, headers: dict[str, str]) -> Any:
    """POST ``body`` to the target's checked addresses in turn, until one answers.

    The URL names the address, not the host, so that DNS is not asked again between the
    check and the connection; the Host header and TLS (SNI, certificate) use the host."""
    with requests.Session() as http:
        http.trust_env = False  # no proxy from the environment: it would resolve the host
        adapter = _PinnedAdapter(target.host)
        http.mount("http://", adapter)
        http.mount("https://", adapter)
        last: Exception | None = None
        for address in target.addresses[:MAX_ADDRESSES]:
            try:
                response = http.post(
                    _address_url(target, address),
                    data=body,
                    headers={**headers, "Host": target.host_header},
                    allow_redirects=False,
                    timeout=TIMEOUTS,
                    verify=VERIFY_TLS,
                    stream=True,  # the answer's body is never read
                )
                response.close()
                return response
            except requests.ConnectionError as error:
                last = error
        assert last is not None
        raise last


def send_callback(session: Session, delivery: Delivery) -> DeliveryOutcome:
    """One signed POST of ``delivery``'s event; what the receiver said."""
    integration = (
        session.get(Integration, delivery.integration_id) if delivery.integration_id else None
    )
    if integration is None or not integration.enabled:
        return DeliveryOutcome(None, "the integration is disabled or removed", give_up=True)
    gone = endpoints.disabled(session, integration.id, delivery.url)
    if gone is not None:
        return DeliveryOutcome(
            None, f"the endpoint is disabled: {gone.disabled_reason}", give_up=True
        )
    # Checked again now: the allowed hosts or the host's addresses may have changed.
    target = inspect_callback_url(delivery.url, integration.allowed_hosts, ALLOW_PRIVATE)
    if isinstance(target, Refusal):
        return DeliveryOutcome(None, target.reason, give_up=target.lasting)
    body = json.dumps(delivery.payload, separators=(",", ":"))
    moment = datetime.now(UTC)
    headers = {
        "webhook-id": delivery.message_id,
        "webhook-timestamp": str(int(moment.timestamp())),
        "webhook-signature": signature(integration, delivery.message_id, moment, body),
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
    }
    try:
        response = post(target, body.encode(), headers)
    except requests.Timeout as error:
        connect, read = TIMEOUTS
        return DeliveryOutcome(
            None, f"no answer (timeouts: {connect:g} s to connect, {read:g} s to read): {error}"
        )
    except requests.RequestException as error:
        return DeliveryOutcome(None, f"could not connect: {error}")
    code = int(response.status_code)
    if 200 <= code < 300:
        return DeliveryOutcome(code)
    if code == 410:
        endpoint = endpoints.disable(session, integration.id, delivery.url)
        log.info("callback endpoint %s disabled: %s", delivery.url, endpoint.disabled_reason)
        return DeliveryOutcome(
            code,
            "410 Gone: the endpoint is disabled until an instructor enables it again",
            give_up=True,
        )
    wait = retry_after(response.headers.get("Retry-After"))
    if 300 <= code < 400:
        where = (response.headers.get("Location") or "nowhere")[:300]
        return DeliveryOutcome(code, f"HTTP {code}: a redirect (to {where}), not followed", wait)
    return DeliveryOutcome(code, f"HTTP {code} {response.reason or ''}".strip(), wait)


register_event_maker("callbacks", make_callbacks)
register_grade_event_maker("callbacks", make_grade_callbacks)
register_sender(DeliveryKind.CALLBACK, send_callback)
