"""Passwords: hashed with the method the settings name (``GRADER_PASSWORD_HASH``), checked
with the method each stored hash names, so that a change of method takes effect as
passwords are set again."""

from __future__ import annotations

import functools

from werkzeug.security import check_password_hash, generate_password_hash

from grader.config import Settings


def hash_password(settings: Settings, password: str) -> str:
    """``password``'s hash, by the settings' method."""
    return generate_password_hash(password, method=settings.password_hash)


def matches(settings: Settings, stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from. Without a stored hash it
    never is, but a hash of the settings' method is still checked, so that an address with
    no account takes as long as a wrong password."""
    if not stored:
        check_password_hash(_unused_hash(settings.password_hash), password)
        return False
    return check_password_hash(stored, password)


@functools.cache
def _unused_hash(method: str) -> str:
    """A hash of the settings' method that no password matches (made once per method, when
    first needed: it costs as much as a sign-in)."""
    return generate_password_hash("not a password of anyone", method=method)
