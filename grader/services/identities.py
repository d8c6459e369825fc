"""Who a person is: local accounts found by their (normalised) email, the users an LMS or
LTI platform vouches for, the links between the two, and the signed tokens that prove an
address or let a password be reset.

An LMS or LTI identity never owns a real address in ``users.email``: its user gets a
placeholder in a reserved domain, and the address the platform asserted is kept in
``users.lms_email``. A local account is linked to a platform's identity only after its
owner proved the local password (see ``grader.web.lti``).
"""

from __future__ import annotations

import hashlib
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from grader.models import ExternalIdentity, Role, User

PLACEHOLDER_DOMAIN = "lti.invalid"
"""Users an LTI platform made get an address in this reserved domain (RFC 2606:
``.invalid`` never resolves), so that they occupy no real address."""
LMS_PLACEHOLDER_DOMAIN = "lms.invalid"
"""The same for the users an LMS's webhooks brought."""
RESET_SECONDS = 60 * 60
"""How long a password-reset link works."""
REGISTRATION_SECONDS = 24 * 60 * 60
"""How long a link confirming a new account's address works."""
_SALTS = {"reset": "grader.accounts.reset", "register": "grader.accounts.register"}


class TokenRefused(Exception):
    """A link's token is forged, expired or used; ``message`` says which, for the person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def normalise_email(email: str) -> str:
    """The form addresses are stored and compared in: stripped, lower-case."""
    return email.strip().lower()


def looks_like_email(email: str) -> bool:
    name, at, domain = email.partition("@")
    return bool(name and at and "." in domain and not any(c.isspace() for c in email))


def is_placeholder(email: str) -> bool:
    """Whether ``email`` is an address no one can receive mail at (an LMS user's)."""
    return email.endswith(".invalid")


def find_by_email(session: Session, email: str) -> User | None:
    """The account with ``email``, compared case-insensitively. Addresses are stored
    lower-case, except the few the 0003 migration left as they were (accounts differing
    only in case): among those the exact spelling wins."""
    address, spelled = normalise_email(email), email.strip()
    if not address:
        return None
    found = {
        user.email: user
        for user in session.scalars(select(User).where(User.email.in_({address, spelled})))
    }
    if found:
        return found.get(spelled) or found[address]
    # Not indexed, but only reached for an address nobody has in its stored form.
    return session.scalars(
        select(User).where(func.lower(User.email) == address).order_by(User.id).limit(1)
    ).first()


def placeholder_email(namespace: str, subject: str) -> str:
    """The reserved address of the user ``subject`` of ``namespace`` (an LTI issuer or
    ``integration:<id>``): the same for the same person, unusable for signing in."""
    digest = hashlib.sha256(f"{namespace}\n{subject}".encode()).hexdigest()[:24]
    if namespace.startswith("integration:"):
        return f"lms-{digest}@{LMS_PLACEHOLDER_DOMAIN}"
    return f"lti-{digest}@{PLACEHOLDER_DOMAIN}"


def asserted_email(email: str | None) -> str | None:
    """What an LMS says the address is, normalised; None when it is not an address."""
    address = normalise_email(email or "")[:254]
    return address if looks_like_email(address) else None


def identity_user(session: Session, namespace: str, subject: str) -> User | None:
    """The user ``namespace`` calls ``subject``, if it has met them before."""
    user_id = session.scalar(
        select(ExternalIdentity.user_id).where(
            ExternalIdentity.source == namespace, ExternalIdentity.external_id == subject
        )
    )
    return session.get(User, user_id) if user_id is not None else None


def link(session: Session, *, namespace: str, subject: str, user: User) -> ExternalIdentity:
    """Record that ``namespace``'s ``subject`` is ``user`` (flushed)."""
    identity = ExternalIdentity(source=namespace, external_id=subject, user_id=user.id)
    session.add(identity)
    session.flush()
    return identity


def lms_user(
    session: Session,
    *,
    namespace: str,
    subject: str,
    name: str,
    email: str | None,
    role: str = Role.STUDENT,
) -> User:
    """The user ``namespace`` (an LTI issuer or ``integration:<id>``) calls ``subject``, made
    on first sight with a placeholder address and the asserted one in ``lms_email``
    (flushed; two requests making the same person at once: the second's flush raises
    IntegrityError, and a retry finds the first one's user).

    An LMS-made user's name follows the LMS; a local account linked to the identity keeps
    its own name. No existing account is ever found by its email here."""
    asserted = asserted_email(email)
    user = identity_user(session, namespace, subject)
    if user is not None:
        if user.password_hash is None and name and user.name != name:
            user.name = name
        if asserted is not None:
            user.lms_email = asserted
        return user
    user = User(
        email=placeholder_email(namespace, subject),
        name=name or "LMS user",
        password_hash=None,
        role=role,
        lms_email=asserted,
    )
    session.add(user)
    session.flush()
    link(session, namespace=namespace, subject=subject, user=user)
    return user


def bump_sessions(user: User) -> None:
    """End every session of ``user`` (call it when the password or the role changes, and
    on signing out); the caller commits."""
    user.end_sessions()


# Signed links: a reset link and a link confirming a new account's address.


def _serializer(secret_key: str, purpose: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret_key, salt=_SALTS[purpose])


def _fingerprint(user: User) -> str:
    """Changes when the password or the session version does: a reset link made before
    either change no longer works (single use)."""
    seed = f"{user.id}\n{user.password_hash or ''}\n{user.session_version}"
    return hashlib.sha256(seed.encode()).hexdigest()[:32]


def reset_token(secret_key: str, user: User) -> str:
    return _serializer(secret_key, "reset").dumps({"user": user.id, "fp": _fingerprint(user)})


def reset_user(session: Session, secret_key: str, token: str) -> User:
    """The user a reset link is for, or TokenRefused."""
    payload = _load(secret_key, "reset", token, RESET_SECONDS)
    user_id = payload.get("user")
    user = session.get(User, user_id) if isinstance(user_id, int) else None
    if user is None or payload.get("fp") != _fingerprint(user):
        raise TokenRefused(
            "This link was used already (or the password changed since it was sent): "
            "ask for a new one."
        )
    return user


def registration_token(secret_key: str, *, email: str, name: str, join_code: str) -> str:
    document = {"email": normalise_email(email), "name": name, "join_code": join_code}
    return _serializer(secret_key, "register").dumps(document)


def registration(secret_key: str, token: str) -> dict[str, str]:
    """The name, email and join code a confirmation link carries, or TokenRefused."""
    payload = _load(secret_key, "register", token, REGISTRATION_SECONDS)
    fields = ("email", "name", "join_code")
    if not all(isinstance(payload.get(key), str) for key in fields):
        raise TokenRefused("This link is not valid: ask for a new one.")
    return {key: payload[key] for key in fields}


def _load(secret_key: str, purpose: str, token: str, max_age: int) -> dict[str, Any]:
    try:
        payload = _serializer(secret_key, purpose).loads(token, max_age=max_age)
    except SignatureExpired:
        raise TokenRefused("This link has expired: ask for a new one.") from None
    except BadSignature:
        raise TokenRefused("This link is not valid: ask for a new one.") from None
    if not isinstance(payload, dict):
        raise TokenRefused("This link is not valid: ask for a new one.")
    return payload
