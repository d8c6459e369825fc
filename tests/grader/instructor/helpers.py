"""What the instructor pages' tests share: the shipped Figure 5.2 folder, uploads, queries."""

from __future__ import annotations

import io
import re
from pathlib import Path

from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

from grader.db import Database
from grader.models import Course, Exercise, User
from tests.grader.conftest import csrf_token

ROOT = Path(__file__).resolve().parents[3]
FIGURE = ROOT / "exercises" / "aima-fig5.2-alphabeta"
LIBRARY = ROOT / "exercises" / "implementations" / "alphabeta"


PROBLEM_ROW = re.compile(
    r'<td class="file">([^<]*)</td><td class="line">(\d+)</td>'
    r'<td class="column">(\d+)</td><td class="message">([^<]*)</td>'
)
"""A row of the table of problems an upload page shows: file, line, column, message."""


def figure_files() -> dict[str, bytes]:
    """The files of the shipped alpha-beta Figure 5.2 exercise."""
    return {path.name: path.read_bytes() for path in sorted(FIGURE.iterdir()) if path.is_file()}


def post_upload(
    client: FlaskClient, course: Course, slug: str, files: dict[str, bytes]
) -> TestResponse:
    """Upload ``files`` as exercise ``slug`` of ``course`` through the form."""
    data: dict[str, object] = {
        "csrf_token": csrf_token(client),
        "slug": slug,
        "files": [(io.BytesIO(content), name) for name, content in files.items()],
    }
    return client.post(
        f"/teach/courses/{course.id}/exercises/new",
        data=data,
        content_type="multipart/form-data",
    )


def find_exercise(database: Database, course: Course, slug: str) -> Exercise | None:
    with database.session() as session:
        exercise = session.scalar(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
        )
        if exercise is not None:
            session.expunge(exercise)
        return exercise


def login(client: FlaskClient, user: User) -> None:
    """Signed in as ``user`` through Flask-Login's session keys: the sign-in form's email
    check needs the email-validator package, which the locked dependencies lack."""
    with client.session_transaction() as session:
        session["_user_id"] = user.get_id()
        session["_fresh"] = True
