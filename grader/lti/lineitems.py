"""Assignment and Grade Services: the due date a launch's line item holds (its
``endDateTime``), read by a worker after a launch that carried none.

Reading a line item is a GET with an access token, a call to the platform that no request
waits for: the launch view sends the task after its commit (see
:attr:`grader.lti.launch.Accepted.lineitem_launch`) and :func:`read_due` does the work. The
date goes through :func:`grader.services.deadlines.set_lti_due` like a launch's own (an
instructor's date always wins; audited; the grades it moves are sent to the LMS). Nothing
here is shown to anyone: a platform that does not answer leaves the due date as it was,
and the log says why.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

import requests
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.lms.callbacks import TIMEOUTS
from grader.lti.launch import lineitem_scope, moment
from grader.lti.scores import USER_AGENT
from grader.lti.tokens import TokenRefused, access_token, forget
from grader.lti.urls import url_problem
from grader.models import Exercise, LtiLaunch, LtiPlatform
from grader.models.base import aware
from grader.services import deadlines
from grader.services.queue import Queue
from grader.services.tasks import DELIVER_TASK
from grader.services.unit_of_work import Dispatcher

log = logging.getLogger(__name__)

CONTENT_TYPE = "application/vnd.ims.lis.v2.lineitem+json"
SOURCE = "lti line item"
"""The audit event's ``source`` of a due date read from a line item."""
ATTEMPTS = 2
"""A platform that did not answer is asked once more, :data:`RETRY_SECONDS` later; then
the next launch asks again."""
RETRY_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class Reading:
    """What one reading of a line item came to, in words for the log."""

    summary: str
    retry: bool = False
    """Worth one more try later: no answer, a server error, a token the platform refused
    before expiry."""


@dataclass(frozen=True, slots=True)
class _Target:
    platform: LtiPlatform
    exercise_id: int
    url: str
    scope: str


def read_due(
    database: Database, settings: Settings, launch_id: int, dispatcher: Dispatcher | None = None
) -> Reading:
    """Read the due date of launch ``launch_id``'s line item and keep it on the exercise
    (unless an instructor set one); the LMS deliveries this moves are sent after the commit
    (by ``dispatcher``, the settings' queue unless given). Doing it twice changes nothing
    more."""
    with database.session() as session:
        target = _target(session, launch_id)
    if isinstance(target, Reading):
        log.info("line item of launch %s not read: %s", launch_id, target.summary)
        return target
    due, reading = fetch_end(target.platform, target.url, target.scope)
    if due is None:
        log.warning("line item %s of launch %s: %s", target.url, launch_id, reading.summary)
        return reading
    with database.session() as session:
        exercise = session.get(Exercise, target.exercise_id)
        if exercise is None:
            return Reading("the exercise is gone")
        ids = deadlines.set_lti_due(session, exercise, due, source=SOURCE)
        (dispatcher or Queue(settings, database)).dispatch(session, DELIVER_TASK, ids)
        if exercise.due_at is None or aware(exercise.due_at) != due:
            why = (
                "the instructor set the due date"
                if exercise.due_origin == deadlines.INSTRUCTOR_ORIGIN
                else "it is not after the exercise's opening"
            )
            reading = Reading(f"{reading.summary}, not kept: {why}")
    log.info("line item %s of launch %s: %s", target.url, launch_id, reading.summary)
    return reading


def _target(session: Session, launch_id: int) -> _Target | Reading:
    """What to read for launch ``launch_id``, or why nothing is."""
    launch = session.get(LtiLaunch, launch_id)
    if launch is None:
        return Reading("the launch is gone")
    scope = lineitem_scope(launch)
    if scope is None or launch.lineitem_url is None:
        return Reading("no line item, or no scope to read it")
    exercise = session.get(Exercise, launch.exercise_id)
    if exercise is None:
        return Reading("the exercise is gone")
    if exercise.due_origin == deadlines.INSTRUCTOR_ORIGIN:
        return Reading("the instructor set the due date")
    platform = session.get(LtiPlatform, launch.platform_id)
    if platform is None:
        return Reading("the platform is no longer registered")
    return _Target(platform, exercise.id, launch.lineitem_url, scope)


def fetch_end(platform: LtiPlatform, url: str, scope: str) -> tuple[datetime | None, Reading]:
    """The line item's ``endDateTime`` at ``url`` (one GET with a token for ``scope``),
    or None and why not."""
    problem = url_problem(url)
    if problem is not None:
        return None, Reading(f"the line item URL {problem}")
    try:
        token = access_token(platform, scope)
    except TokenRefused as refused:
        status = refused.status_code
        again = status is None or status == 429 or status >= 500
        return None, Reading(f"no access token: {refused}", retry=again)
    try:
        response = requests.get(
            url,
            headers={
                "Authorization": f"Bearer {token}",
                "Accept": CONTENT_TYPE,
                "User-Agent": USER_AGENT,
            },
            timeout=TIMEOUTS,
            allow_redirects=False,
        )
    except requests.Timeout as error:
        wait = TIMEOUTS[0] + TIMEOUTS[1]
        return None, Reading(f"no answer within {wait:.0f} s ({error})", retry=True)
    except requests.RequestException as error:
        return None, Reading(f"could not connect: {error}", retry=True)
    code = int(response.status_code)
    if not 200 <= code < 300:
        if code == 401:
            forget(platform, scope)  # revoked or expired early: the next try gets a new one
        detail = f"HTTP {code} {response.reason or ''}".strip()
        return None, Reading(detail, retry=code in (401, 429) or code >= 500)
    try:
        body = response.json()
    except ValueError:
        return None, Reading("the answer is not JSON")
    end = body.get("endDateTime") if isinstance(body, dict) else None
    if not isinstance(end, str) or not end.strip():
        return None, Reading("the line item has no endDateTime")
    due = moment(end.strip()[:64])
    if due is None:
        return None, Reading(f"the line item's endDateTime {end[:64]!r} is not ISO 8601")
    return due, Reading(f"endDateTime {due.isoformat()}")
