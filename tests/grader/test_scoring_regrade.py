"""A change of scoring is a new exercise version, and its regrade preview shows each
student's score moving before anything counts."""

from __future__ import annotations

from flask.testing import FlaskClient
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.models import Course, Exercise, ExerciseVersion, GradingRun, Regrade, Role
from grader.services import regrades
from grader.services.exercise_store import folder_files, save_version
from tests.grader.conftest import UserFactory, csrf_token
from tests.grader.instructor.helpers import FIGURE, find_exercise, login
from tests.grader.instructor.test_class_results import SLUG, _submit


def test_changing_only_the_hidden_share_makes_a_version_whose_regrade_moves_the_score(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    student = make_user(Role.STUDENT, course, name="Never Raises Alpha")
    _submit(database, settings, course, student, "wrong_alpha_never_updated.py")
    files = folder_files(FIGURE)
    files["exercise.yaml"] += "scoring:\n  hidden_share: per_tree\n"
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        ).one()
        before = session.get(ExerciseVersion, exercise.current_version_id)
        assert before is not None
        version = save_version(session, exercise, files, before.statement)
        assert version.id != before.id and version.content_hash != before.content_hash
        # Published: students are graded on it from now on.
        exercise.current_version_id = version.id
        [old_run] = session.scalars(select(GradingRun)).all()
        old_score = old_run.score
    assert old_score is not None

    login(client, make_user(Role.INSTRUCTOR, course))
    found = find_exercise(database, course, SLUG)
    assert found is not None
    response = client.post(
        f"/teach/exercises/{found.id}/regrade",
        data={"csrf_token": csrf_token(client)},
        follow_redirects=True,
    )

    assert "What confirming would change" in response.get_data(as_text=True)
    with database.session() as session:
        regrade = session.scalars(select(Regrade)).one()
        assert regrade.version_id == version.id
        [change] = regrades.summary(session, regrade).changes
    # Every tree weighing the same, the eight hidden trees carry 8/9 of the score instead
    # of half (and a new version draws its own hidden trees): the score moves.
    assert change.user.id == student.id
    assert change.before == old_score
    assert change.after is not None and change.after != change.before, (change.before, change.after)
