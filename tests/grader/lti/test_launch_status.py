"""A launch follows the exercise's status: a student is refused a hidden or draft
exercise with a readable page, and opens an archived one they submitted to."""

from __future__ import annotations

from flask.testing import FlaskClient
from sqlalchemy import select

from grader.db import Database
from grader.models import Exercise, ExerciseStatus, Submission, User
from tests.grader.lti.conftest import launch
from tests.grader.lti.platform import INSTRUCTOR, Platform


def _set_status(database: Database, status: ExerciseStatus) -> int:
    with database.session() as session:
        exercise = session.scalars(select(Exercise)).one()
        exercise.status = status
        return exercise.id


def test_a_student_is_refused_a_hidden_exercise_and_an_instructor_is_not(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    assert launch(client, platform).status_code == 302
    exercise_id = _set_status(database, ExerciseStatus.HIDDEN)

    response = launch(client, platform)

    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "is not open to students at the moment" in page
    assert "Traceback" not in page
    teacher = launch(client, platform, roles=[INSTRUCTOR], sub="teacher-1")
    assert teacher.status_code == 302
    assert teacher.headers["Location"] == f"/exercises/{exercise_id}"


def test_an_archived_exercise_opens_for_a_student_who_submitted_to_it(
    client: FlaskClient, database: Database, platform: Platform, registered: int
) -> None:
    assert launch(client, platform).status_code == 302
    exercise_id = _set_status(database, ExerciseStatus.ARCHIVED)
    assert launch(client, platform).status_code == 400
    with database.session() as session:
        user = session.scalars(select(User)).one()
        session.add(
            Submission(
                user_id=user.id, exercise_id=exercise_id, attempt=1, filename="a.py", source=""
            )
        )

    response = launch(client, platform)

    assert response.status_code == 302
    assert response.headers["Location"] == f"/exercises/{exercise_id}"
