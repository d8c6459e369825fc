"""What a request handler needs: the settings, the database session (the request's unit
of work), role checks."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import abort, current_app, g
from flask_login import current_user, login_required
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response as BaseResponse

from grader.config import Settings
from grader.db import Database
from grader.models import Course, Exercise
from grader.services import permissions
from grader.services.permissions import has_role
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
    """The request's session: its unit of work, committed once when the request succeeds
    (see :func:`end_unit_of_work`) and closed when it ends."""
    if "db_session" not in g:
        g.db_session = database().sessions()
    session: Session = g.db_session
    return session


def end_unit_of_work(response: BaseResponse) -> BaseResponse:
    """Commit the request's session when the response is not an error (which sends the
    tasks the request asked for), roll it back when it is (which forgets them)."""
    session: Session | None = g.get("db_session")
    if session is not None:
        if response.status_code < 400:
            session.commit()
        else:
            session.rollback()
    return response


def role_required(*roles: str) -> Callable[[F], F]:
    """Signed in with one of ``roles`` (admins pass every check), else 403."""

    def decorate(view: F) -> F:
        @wraps(view)
        @login_required
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if not has_role(current_user, *roles):
                abort(403)
            return view(*args, **kwargs)

        return wrapped  # type: ignore[return-value]

    return decorate


# What an instructor's page is about: the course or exercise, if the signed-in user may
# change it, else not found (never forbidden: no hint that it exists).


def taught_course(course_id: int) -> Course:
    session = db_session()
    course = session.get(Course, course_id)
    if course is None or not permissions.may_change_course(session, current_user, course_id):
        abort(404)
    return course


def taught_exercise(exercise_id: int) -> Exercise:
    session = db_session()
    exercise = session.get(Exercise, exercise_id)
    if exercise is None or not permissions.may_change_exercise(session, current_user, exercise):
        abort(404)
    return exercise
