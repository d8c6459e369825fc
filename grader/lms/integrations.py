"""Integrations: who may manage them, their signing secrets and API tokens.

The signing secret is the Standard Webhooks kind (``whsec_`` + base64 of random bytes) and
is stored as it is, since signatures are checked and made with it. The API token is only
ever stored as its SHA-256: the grader cannot show it again, only make a new one.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.models import Course, Integration, User, utcnow
from grader.models.base import aware
from grader.services import permissions

SECRET_BYTES = 32
"""Random bytes in a signing secret (Standard Webhooks asks for 24 to 64)."""
TOKEN_PREFIX = "gtg_"
ROTATION_OVERLAP = timedelta(hours=24)
"""How long the previous secret is still accepted after a rotation (by default). It
belongs in :class:`grader.config.Settings` as ``secret_rotation_overlap_hours``."""
MAX_OVERLAP = timedelta(days=7)
MAX_HOSTS = 50
_HOST = re.compile(r"^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$")


@dataclass(frozen=True, slots=True)
class Credentials:
    """What is shown once: a new secret, a new token, or both."""

    integration: Integration
    secret: str | None = None
    token: str | None = None


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def parse_hosts(text: str) -> tuple[list[str], list[str]]:
    """The host names in ``text`` (one per line or separated by commas or spaces) and the
    problems found in it."""
    hosts: list[str] = []
    problems: list[str] = []
    for item in re.split(r"[\s,]+", text.strip().lower()):
        item = item.rstrip(".")
        if not item or item in hosts:
            continue
        if len(item) > 253 or not _HOST.match(item):
            problems.append(f"{item!r} is not a host name (write lms.example.edu or *.example.edu)")
            continue
        hosts.append(item)
    if len(hosts) > MAX_HOSTS:
        problems.append(f"at most {MAX_HOSTS} hosts")
    return hosts, problems


# Who may manage an integration: grader.services.permissions.


def managed(session: Session, user: User) -> list[Integration]:
    """The integrations ``user`` may see and change, by course then name."""
    ids = [course.id for course in permissions.taught_courses(session, user)]
    return list(
        session.scalars(
            select(Integration)
            .where(Integration.course_id.in_(ids))
            .order_by(Integration.course_id, Integration.name, Integration.id)
        )
    )


# Making and changing them.


def create(
    session: Session, course: Course, name: str, allowed_hosts: list[str], user: User | None
) -> Credentials:
    """A new enabled integration of ``course`` (flushed) with its secret and token."""
    secret, token = new_secret(), new_token()
    integration = Integration(
        course_id=course.id,
        name=name.strip()[:200],
        allowed_hosts=list(allowed_hosts),
        secret=secret,
        token_hash=token_hash(token),
        enabled=True,
        created_by_id=None if user is None else user.id,
    )
    session.add(integration)
    session.flush()
    return Credentials(integration, secret, token)


def rotate_secret(
    integration: Integration,
    overlap: timedelta = ROTATION_OVERLAP,
    now: datetime | None = None,
) -> Credentials:
    """A new signing secret; the current one stays accepted for ``overlap``."""
    now = now or utcnow()
    overlap = max(timedelta(0), min(overlap, MAX_OVERLAP))
    if overlap:
        integration.previous_secret = integration.secret
        integration.previous_secret_until = now + overlap
    else:
        integration.previous_secret = None
        integration.previous_secret_until = None
    integration.secret = new_secret()
    return Credentials(integration, secret=integration.secret)


def replace_token(integration: Integration) -> Credentials:
    """A new API token; the old one stops working at once."""
    token = new_token()
    integration.token_hash = token_hash(token)
    return Credentials(integration, token=token)


def verifying_secrets(integration: Integration, now: datetime | None = None) -> list[str]:
    """The secrets a signature may be made with now: the current one, and the previous one
    while the rotation's overlap lasts."""
    found = [integration.secret]
    until = integration.previous_secret_until
    if integration.previous_secret and until is not None and aware(until) > (now or utcnow()):
        found.append(integration.previous_secret)
    return found


def by_token(session: Session, token: str) -> Integration | None:
    """The integration whose API token is ``token`` (enabled or not)."""
    if not token:
        return None
    return session.scalar(select(Integration).where(Integration.token_hash == token_hash(token)))
