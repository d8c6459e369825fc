"""What a request handler needs: the settings, the database session, role checks."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import abort, current_app, g
from flask_login import current_user, login_required
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.models import Role
from grader.services.queue import Queue

F = TypeVar("F", bound=Callable[..., Any])


def settings() -> Settings:
    value: Settings = current_app.extensions["grader.settings"]
    return value


def database() -> Database:
    value: Database = current_app.extensions["grader.db"]
    return value


def queue() -> Queue:
    """The way to the workers (send runs only after their rows are committed)."""
    value: Queue = current_app.extensions["grader.queue"]
    return value


def db_session() -> Session:
    """The request's session (closed when the request ends; commit explicitly)."""
    if "db_session" not in g:
        g.db_session = database().sessions()
    session: Session = g.db_session
    return session


def role_required(*roles: str) -> Callable[[F], F]:
    """Signed in with one of ``roles`` (admins pass every check), else 403."""

    def decorate(view: F) -> F:
        @wraps(view)
        @login_required
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if current_user.role != Role.ADMIN and current_user.role not in roles:
                abort(403)
            return view(*args, **kwargs)

        return wrapped  # type: ignore[return-value]

    return decorate
