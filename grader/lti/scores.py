"""Assignment and Grade Services: a graded run's score, posted to the platform's line item.

Importing this module registers the event maker (a graded run of a student who launched the
exercise from a platform with a line item and the score scope becomes a
:class:`~grader.models.Delivery`) and the sender (an access token, then one POST of the
score); :mod:`grader.services.deliveries` stores each attempt and plans the retries.

The score is built with PyLTI1p3's ``Grade``; the token and the POST use ``requests``
directly, because PyLTI1p3's service connector keeps tokens without their expiry and turns
every non-2xx answer into an exception without its ``Retry-After``.
"""

from __future__ import annotations

import json
import logging
import secrets
from datetime import UTC, datetime
from typing import Any

import requests
from pylti1p3.grade import Grade
from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.lms.callbacks import TIMEOUTS, retry_after
from grader.lti.launch import SCORE_SCOPE
from grader.lti.tokens import TokenRefused, access_token, forget
from grader.lti.urls import url_problem
from grader.models import (
    Delivery,
    DeliveryKind,
    Exercise,
    GradingRun,
    LtiLaunch,
    LtiPlatform,
    RunState,
    Submission,
    utcnow,
)
from grader.services.deliveries import (
    DeliveryOutcome,
    register_event_maker,
    register_grade_event_maker,
    register_sender,
)
from grader.services.grades import StudentGrade

log = logging.getLogger(__name__)

EVENT = "score"
CONTENT_TYPE = "application/vnd.ims.lis.v1.score+json"
USER_AGENT = "gametree-grader-lti/1"


def scores_url(lineitem_url: str) -> str:
    """The line item's scores endpoint (``/scores`` after its path, before any query)."""
    base, _, query = lineitem_url.partition("?")
    return base.rstrip("/") + "/scores" + (f"?{query}" if query else "")


def timestamp(moment: datetime | None) -> str:
    """ISO 8601 with the time zone, as AGS wants it."""
    moment = moment or utcnow()
    if moment.tzinfo is None:  # SQLite gives back naive UTC times
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def score_payload(run: GradingRun, subject: str) -> dict[str, Any]:
    """The AGS score of ``run`` for the platform's user ``subject``."""
    grade = (
        Grade()
        .set_user_id(subject)
        .set_score_given(float(run.score or 0.0))
        .set_score_maximum(float(run.max_score or 0.0))
        .set_activity_progress("Completed")
        .set_grading_progress("FullyGraded")
        .set_timestamp(timestamp(run.finished_at))
    )
    payload: dict[str, Any] = json.loads(grade.get_value())
    return payload


def grade_score_payload(grade: StudentGrade, subject: str) -> dict[str, Any]:
    """The AGS score of the student's grade (after the late policy, or the override)."""
    payload: dict[str, Any] = json.loads(
        Grade()
        .set_user_id(subject)
        .set_score_given(float(grade.score or 0.0))
        .set_score_maximum(float(grade.max_score or 0.0))
        .set_activity_progress("Completed")
        .set_grading_progress("FullyGraded")
        .set_timestamp(timestamp(None))
        .get_value()
    )
    if grade.override is not None:
        payload["comment"] = grade.override.comment[:1000]
    return payload


def score_launches(session: Session, user_id: int, exercise_id: int) -> list[LtiLaunch]:
    """The launches of the exercise by the student whose platform takes scores."""
    launches = session.scalars(
        select(LtiLaunch)
        .where(
            LtiLaunch.user_id == user_id,
            LtiLaunch.exercise_id == exercise_id,
            LtiLaunch.lineitem_url.is_not(None),
        )
        .order_by(LtiLaunch.id)
    )
    return [
        launch
        for launch in launches
        if SCORE_SCOPE in (launch.ags_scopes or []) and launch.lineitem_url
    ]


def make_grade_scores(
    session: Session, exercise: Exercise, grade: StudentGrade, reason: str
) -> list[Delivery]:
    """The scores a changed grade calls for: one per platform the student launched the
    exercise from with a line item and the score scope."""
    latest = grade.latest
    made = []
    for launch in score_launches(session, grade.user_id, exercise.id):
        assert launch.lineitem_url is not None
        delivery = Delivery(
            kind=DeliveryKind.LTI_SCORE,
            event=EVENT,
            message_id="score_" + secrets.token_urlsafe(18),
            platform_id=launch.platform_id,
            submission_id=None if latest is None else latest.submission_id,
            url=scores_url(launch.lineitem_url),
            payload=grade_score_payload(grade, launch.subject),
        )
        session.add(delivery)
        made.append(delivery)
    return made


def make_scores(session: Session, run: GradingRun) -> list[Delivery]:
    """The scores a graded run calls for: one per platform the student launched it from
    with a line item and the score scope."""
    if run.state != RunState.GRADED or run.score is None or run.max_score is None:
        return []
    submission = session.get(Submission, run.submission_id)
    if submission is None:
        return []
    launches = session.scalars(
        select(LtiLaunch)
        .where(
            LtiLaunch.user_id == submission.user_id,
            LtiLaunch.exercise_id == submission.exercise_id,
            LtiLaunch.lineitem_url.is_not(None),
        )
        .order_by(LtiLaunch.id)
    )
    made = []
    for launch in launches:
        if SCORE_SCOPE not in (launch.ags_scopes or []) or not launch.lineitem_url:
            continue
        delivery = Delivery(
            kind=DeliveryKind.LTI_SCORE,
            event=EVENT,
            message_id="score_" + secrets.token_urlsafe(18),
            platform_id=launch.platform_id,
            submission_id=submission.id,
            run_id=run.id,
            url=scores_url(launch.lineitem_url),
            payload=score_payload(run, launch.subject),
        )
        session.add(delivery)
        made.append(delivery)
    return made


def send_score(session: Session, delivery: Delivery) -> DeliveryOutcome:
    """One POST of ``delivery``'s score with a fresh or cached access token."""
    platform = session.get(LtiPlatform, delivery.platform_id) if delivery.platform_id else None
    if platform is None:
        return DeliveryOutcome(None, "the platform is no longer registered", give_up=True)
    problem = url_problem(delivery.url)
    if problem is not None:
        return DeliveryOutcome(None, f"the scores URL {problem}", give_up=True)
    try:
        token = access_token(platform, SCORE_SCOPE)
    except TokenRefused as refused:
        return DeliveryOutcome(
            None, f"no access token: {refused}", retry_after(refused.retry_after)
        )
    try:
        response = requests.post(
            delivery.url,
            data=json.dumps(delivery.payload, separators=(",", ":")),
            headers={
                "Authorization": f"Bearer {token}",
                "Content-Type": CONTENT_TYPE,
                "Accept": "application/json",
                "User-Agent": USER_AGENT,
            },
            timeout=TIMEOUTS,
            allow_redirects=False,
        )
    except requests.Timeout as error:
        return DeliveryOutcome(
            None, f"no answer within {TIMEOUTS[0] + TIMEOUTS[1]:.0f} s ({error})"
        )
    except requests.RequestException as error:
        return DeliveryOutcome(None, f"could not connect: {error}")
    code = int(response.status_code)
    if 200 <= code < 300:
        return DeliveryOutcome(code)
    if code == 401:
        forget(platform, SCORE_SCOPE)  # revoked or expired early: the next try gets a new one
    wait = retry_after(response.headers.get("Retry-After"))
    detail = f"HTTP {code} {response.reason or ''}".strip()
    if code == 410:
        return DeliveryOutcome(code, f"{detail}: the line item is gone", give_up=True)
    return DeliveryOutcome(code, detail, wait)


register_event_maker("lti_scores", make_scores)
register_grade_event_maker("lti_scores", make_grade_scores)
register_sender(DeliveryKind.LTI_SCORE, send_score)
