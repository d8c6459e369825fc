"""A student's standings on their home page (attempts, best score after the late policy,
latest verdict, due date per exercise) are read in as many statements for a course of
twelve exercises as for a course of three."""

from __future__ import annotations

from datetime import timedelta

from flask.testing import FlaskClient

from grader.db import Database
from grader.models import (
    Course,
    Exercise,
    ExerciseStatus,
    ExerciseVersion,
    GradingRun,
    RunState,
    Submission,
    User,
    utcnow,
)
from grader.models.submissions import SubmissionKind
from tests.grader.conftest import UserFactory, counted, login


def due_exercise_with_an_attempt(
    database: Database, course: Course, student: User, number: int
) -> None:
    """Exercise ``number``, published and due tomorrow, and ``student``'s graded attempt."""
    with database.session() as session:
        exercise = Exercise(
            course_id=course.id,
            slug=f"due-{number}",
            title=f"Due {number}",
            status=ExerciseStatus.PUBLISHED,
            due_at=utcnow() + timedelta(days=1),
        )
        session.add(exercise)
        session.flush()
        version = ExerciseVersion(exercise_id=exercise.id, content_hash="0" * 64, files={})
        session.add(version)
        session.flush()
        exercise.current_version_id = version.id
        attempt = Submission(
            user_id=student.id,
            exercise_id=exercise.id,
            attempt=1,
            kind=SubmissionKind.ATTEMPT,
            filename="s.py",
            source="",
        )
        session.add(attempt)
        session.flush()
        session.add(
            GradingRun(
                submission_id=attempt.id,
                exercise_version_id=version.id,
                state=RunState.GRADED,
                verdict="passed",
                score=7.0,
                max_score=10.0,
            )
        )


def statements_on_the_home_page(client: FlaskClient, database: Database) -> int:
    with counted(database) as statements:
        page = client.get("/")
    assert page.status_code == 200
    return len([sql for sql in statements if sql.lstrip().upper().startswith("SELECT")])


def test_the_home_page_reads_twelve_exercises_standings_in_as_many_statements_as_three(
    client: FlaskClient, database: Database, make_user: UserFactory
) -> None:
    with database.session() as session:
        course = Course(title="Games", join_code="GAMES1")
        session.add(course)
    student = make_user(course=course)
    login(client, student)

    for number in range(1, 4):
        due_exercise_with_an_attempt(database, course, student, number)
    with_three = statements_on_the_home_page(client, database)
    for number in range(4, 13):
        due_exercise_with_an_attempt(database, course, student, number)
    with_twelve = statements_on_the_home_page(client, database)

    assert with_three == with_twelve
    assert client.get("/").get_data(as_text=True).count("7 / 10") == 12
