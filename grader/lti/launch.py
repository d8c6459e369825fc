"""What a validated LTI launch does: the user, the course, the membership, the exercise,
and the record of where the exercise's scores go.

The id_token has been checked before (signature, issuer, audience, nonce, deployment):
this module trusts its claims and turns them into rows, flushed, not committed.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pylti1p3.roles import TeacherRole, TeachingAssistantRole
from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.lti.exercises import find_exercise
from grader.models import (
    Course,
    Exercise,
    LtiContext,
    LtiLaunch,
    LtiPlatform,
    Membership,
    Role,
    User,
    utcnow,
)
from grader.services import deadlines, identities, join_codes, permissions

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
CONTEXT_CLAIM = LTI + "context"
CUSTOM_CLAIM = LTI + "custom"
RESOURCE_LINK_CLAIM = LTI + "resource_link"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
LINEITEM_READONLY_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"
EXERCISE_PARAMETER = "exercise"
"""The custom parameter naming the exercise's slug (``exercise=aima-fig5.2-alphabeta``)."""
DUE_PARAMETERS = ("due_at", "lineitem_end", "end_date_time", "enddatetime", "due_date")
"""Custom parameters that may carry the link's due date, first found wins: platforms fill
them by substitution (``due_at=$ResourceLink.submission.endDateTime``, or the line item's
``endDateTime``)."""


class LaunchRefused(Exception):
    """The launch cannot be accepted; ``message`` says why, in words for the person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class Accepted:
    user: User
    course: Course
    exercise: Exercise
    deliveries: list[int] = field(default_factory=list)
    """LMS deliveries to send after the commit (grades a due date from the launch moved)."""
    lineitem_launch: int | None = None
    """The launch whose line item a worker reads the due date from after the commit
    (:mod:`grader.lti.lineitems`): the launch carried none and may read its line item."""


def teaches(claims: Mapping[str, Any]) -> bool:
    """Whether the roles claim makes the person an instructor (or assistant) of the context."""
    roles = (TeacherRole, TeachingAssistantRole)
    return any(role(claims).check() for role in roles)


def _text(value: object, limit: int) -> str:
    return value.strip()[:limit] if isinstance(value, str) else ""


def _claim(claims: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = claims.get(name)
    return value if isinstance(value, dict) else {}


def display_name(claims: Mapping[str, Any]) -> str:
    name = _text(claims.get("name"), 200)
    if not name:
        parts = (_text(claims.get("given_name"), 100), _text(claims.get("family_name"), 100))
        name = " ".join(part for part in parts if part)
    return name or "LMS user"


def find_user(session: Session, platform: LtiPlatform, claims: Mapping[str, Any]) -> User:
    """The user the platform calls ``sub``, made on first launch.

    A new user gets a placeholder address; the email the platform asserts is kept in
    ``lms_email`` only. An existing account is never taken over by its email address: a
    platform vouches for its own users only, and a local account becomes the platform's
    user only once its owner proved its password (see :func:`account_to_link`)."""
    instructor = teaches(claims)
    named = bool(claims.get("name") or claims.get("given_name"))
    user = identities.lms_user(
        session,
        namespace=platform.issuer,
        subject=str(claims["sub"]),
        name=display_name(claims) if named else "",
        email=_text(claims.get("email"), 254) or None,
        role=Role.INSTRUCTOR if instructor else Role.STUDENT,
    )
    # Teaching in one course opens the teaching pages; a student elsewhere keeps them.
    if instructor and user.role == Role.STUDENT:
        user.role = Role.INSTRUCTOR
        identities.bump_sessions(user)
    return user


def account_to_link(
    session: Session, platform: LtiPlatform, claims: Mapping[str, Any]
) -> User | None:
    """The local account (one with a password) whose address the platform asserts for a
    person it launches for the first time: its owner may link the two by proving the
    password. None when the platform knows the person already or no such account exists."""
    subject = claims.get("sub")
    email = identities.asserted_email(_text(claims.get("email"), 254))
    if not isinstance(subject, str) or email is None:
        return None
    if identities.identity_user(session, platform.issuer, subject) is not None:
        return None
    user = identities.find_by_email(session, email)
    return user if user is not None and user.password_hash else None


def _join_code(session: Session) -> str:
    while True:
        code = "LTI-" + secrets.token_hex(5).upper()
        if not join_codes.is_taken(session, code):
            return code


def find_course(session: Session, platform: LtiPlatform, claims: Mapping[str, Any]) -> Course:
    """The course the platform's context maps to, made on the context's first launch."""
    context = _claim(claims, CONTEXT_CLAIM)
    context_id = _text(context.get("id"), 300)
    if not context_id:
        raise LaunchRefused(
            "The platform did not say which course this link belongs to (no context): "
            "add the link inside a course."
        )
    title = _text(context.get("title"), 200) or _text(context.get("label"), 200) or "LMS course"
    mapping = session.scalar(
        select(LtiContext).where(
            LtiContext.platform_id == platform.id, LtiContext.context_id == context_id
        )
    )
    if mapping is not None:
        course = session.get(Course, mapping.course_id)
        assert course is not None  # the mapping goes with its course (ON DELETE CASCADE)
        mapping.title = title[:300]
        return course
    course = Course(title=title, join_code=_join_code(session))
    session.add(course)
    session.flush()
    session.add(
        LtiContext(platform_id=platform.id, context_id=context_id, title=title, course_id=course.id)
    )
    return course


def enrol(session: Session, user: User, course: Course, instructor: bool) -> None:
    """``user`` in ``course`` with the role the platform gives them there."""
    role = Role.INSTRUCTOR if instructor else Role.STUDENT
    membership = session.scalar(
        select(Membership).where(Membership.user_id == user.id, Membership.course_id == course.id)
    )
    if membership is None:
        session.add(Membership(user_id=user.id, course_id=course.id, role=role))
    else:
        membership.role = role


def requested_exercise(claims: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """The slug of the ``exercise`` custom parameter and the resource link's title."""
    slug = _text(_claim(claims, CUSTOM_CLAIM).get(EXERCISE_PARAMETER), 100) or None
    title = _text(_claim(claims, RESOURCE_LINK_CLAIM).get("title"), 200) or None
    return slug, title


def moment(value: str) -> datetime | None:
    """An ISO 8601 date and time, in UTC (a time without a zone is read as UTC), or None
    when ``value`` is not one."""
    try:
        found = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    # In UTC: SQLite keeps a time's digits and drops its offset.
    return found.astimezone(UTC) if found.tzinfo is not None else found.replace(tzinfo=UTC)


def launch_due(claims: Mapping[str, Any]) -> datetime | None:
    """The due date the launch carries in a custom parameter (ISO 8601; a time without a
    zone is read as UTC), or None: none given, left unsubstituted (``$ResourceLink...``)
    or unreadable."""
    custom = _claim(claims, CUSTOM_CLAIM)
    for name in DUE_PARAMETERS:
        value = _text(custom.get(name), 64)
        if not value or value.startswith("$"):
            continue
        found = moment(value)
        if found is not None:
            return found
    return None


def lineitem_scope(launch: LtiLaunch) -> str | None:
    """The scope to read ``launch``'s line item with (the read-only one when the platform
    granted both), or None: no line item, or no scope that reads it."""
    if not launch.lineitem_url:
        return None
    granted = launch.ags_scopes or []
    for scope in (LINEITEM_READONLY_SCOPE, LINEITEM_SCOPE):
        if scope in granted:
            return scope
    return None


def record_launch(
    session: Session,
    platform: LtiPlatform,
    user: User,
    exercise: Exercise,
    claims: Mapping[str, Any],
) -> LtiLaunch:
    """Remember where this user's scores on ``exercise`` go (the latest launch wins)."""
    ags = _claim(claims, AGS_CLAIM)
    scopes = [scope for scope in ags.get("scope") or [] if isinstance(scope, str)]
    lineitem = _text(ags.get("lineitem"), 2000) or None
    launch = session.scalar(
        select(LtiLaunch).where(
            LtiLaunch.platform_id == platform.id,
            LtiLaunch.user_id == user.id,
            LtiLaunch.exercise_id == exercise.id,
        )
    )
    if launch is None:
        launch = LtiLaunch(platform_id=platform.id, user_id=user.id, exercise_id=exercise.id)
        session.add(launch)
    launch.subject = str(claims["sub"])
    launch.resource_link_id = _text(_claim(claims, RESOURCE_LINK_CLAIM).get("id"), 300)
    launch.lineitem_url = lineitem
    launch.ags_scopes = scopes
    launch.updated_at = utcnow()
    return launch


def accept(
    session: Session, settings: Settings, platform: LtiPlatform, claims: Mapping[str, Any]
) -> Accepted:
    """Everything a validated resource-link launch makes (flushed, not committed)."""
    subject = claims.get("sub")
    if not isinstance(subject, str) or not subject.strip() or len(subject) > 300:
        raise LaunchRefused(
            "The platform did not say who you are in a way the grader can keep "
            "(the sub claim is missing or longer than 300 characters)."
        )
    user = find_user(session, platform, claims)
    course = find_course(session, platform, claims)
    enrol(session, user, course, teaches(claims))
    slug, title = requested_exercise(claims)
    exercise = find_exercise(session, settings, course, slug, title)
    if exercise is None:
        named = f"“{slug or title}”" if (slug or title) else "no exercise"
        raise LaunchRefused(
            f"This link names {named}, which is neither in the course nor in the library. "
            f"Set the link's custom parameter {EXERCISE_PARAMETER}=<slug> to one of the "
            "grader's exercises."
        )
    session.flush()
    role = permissions.course_role(session, user, course.id)
    submitted = permissions.student_submitted(session, user, exercise)
    if not permissions.may_see_exercise(exercise, role, submitted=submitted):
        # A draft or hidden exercise is not a student's to open; an
        # archived one is, read-only, for those who submitted to it.
        raise LaunchRefused(
            f"“{exercise.title}” is not open to students at the moment. Ask your "
            "instructor; your earlier submissions, if any, stay in the grader."
        )
    launch = record_launch(session, platform, user, exercise, claims)
    due = launch_due(claims)
    # An instructor's own due date always wins over the platform's (set_lti_due checks).
    sent = [] if due is None else deadlines.set_lti_due(session, exercise, due)
    session.flush()
    # Without a due date in the launch, the line item may hold one; reading it is a call
    # to the platform, which a worker makes after the commit, never this request.
    reads = (
        due is None
        and exercise.due_origin != deadlines.INSTRUCTOR_ORIGIN
        and lineitem_scope(launch) is not None
    )
    return Accepted(user, course, exercise, sent, launch.id if reads else None)
