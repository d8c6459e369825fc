"""A run graded before its exercise version's analysis is done: its feedback is shown at
once, each public tree says its drawing is being prepared, and the page keeps polling until
the analysis is done (then it reloads and draws the trees). A failed analysis draws nothing
and says so, without polling."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select, update

from grader.config import Settings
from grader.db import Database
from grader.models import AnalysisState, Course, Exercise, Role, Submission, User, VersionAnalysis
from grader.services.analyses import analyse
from tests.grader.conftest import UserFactory, login
from tests.grader.web.test_student_pages import CORRECT, drawn_nodes, exercise_id, upload

PENDING = 'data-drawings-pending="1"'
PREPARED = "The drawing of this tree is being prepared"


@pytest.fixture
def student(client: FlaskClient, course: Course, make_user: UserFactory) -> User:
    user = make_user(course=course)
    login(client, user)
    return user


def _version_id(database: Database, exercise: int) -> int:
    with database.session() as session:
        found = session.get(Exercise, exercise)
        assert found is not None and found.current_version_id is not None
        return found.current_version_id


def _analysis_set(database: Database, version_id: int, state: AnalysisState) -> None:
    """The version's analysis put in ``state`` with no result, as it is while queued or
    running, or after it failed."""
    with database.session() as session:
        session.execute(
            update(VersionAnalysis)
            .where(VersionAnalysis.version_id == version_id)
            .values(state=state, result=None, stage="", finished_at=None, task_id="worker-task")
        )


def _graded_page(
    client: FlaskClient, database: Database, course: Course, analysis: AnalysisState
) -> tuple[str, int, int]:
    """A correct upload graded, then its version's analysis put in state ``analysis``: the
    page's path, the submission's id and the version's."""
    exercise = exercise_id(database, course)
    response = upload(client, exercise, CORRECT.read_bytes(), "correct_fail_hard.py")
    assert response.status_code == 302
    with database.session() as session:
        submission_id = session.scalars(select(Submission.id)).one()
    version_id = _version_id(database, exercise)
    _analysis_set(database, version_id, analysis)
    return response.headers["Location"], submission_id, version_id


@pytest.mark.parametrize("state", [AnalysisState.QUEUED, AnalysisState.RUNNING])
def test_feedback_before_the_analysis_says_the_drawings_come_and_polls(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    student: User,
    state: AnalysisState,
) -> None:
    location, submission_id, version_id = _graded_page(client, database, course, state)

    page = client.get(location).get_data(as_text=True)
    assert "Graded" in page and "100 / 100" in page  # the feedback is not held back
    assert PREPARED in page and PENDING in page
    assert 'class="tree-views"' not in page
    status = client.get(f"/submissions/{submission_id}/status").get_json()
    assert status["state"] == "graded" and status["drawings_pending"] is True

    # The analysis ends: the status says so (the page reloads) and the page draws the trees.
    analyse(database, settings, version_id, task_id="worker-task")
    status = client.get(f"/submissions/{submission_id}/status").get_json()
    assert status["drawings_pending"] is False
    page = client.get(location).get_data(as_text=True)
    assert PREPARED not in page and PENDING not in page
    assert "C2" in drawn_nodes(client, page)[0]


def test_a_failed_analysis_draws_nothing_and_does_not_poll(
    client: FlaskClient, database: Database, course: Course, student: User
) -> None:
    location, submission_id, _ = _graded_page(client, database, course, AnalysisState.FAILED)
    page = client.get(location).get_data(as_text=True)
    assert PREPARED not in page and PENDING not in page
    assert "This tree is not drawn here" in page
    assert (
        client.get(f"/submissions/{submission_id}/status").get_json()["drawings_pending"] is False
    )


def test_a_run_not_yet_graded_has_no_drawings_pending(
    client: FlaskClient, database: Database, course: Course, student: User
) -> None:
    location, submission_id, _ = _graded_page(client, database, course, AnalysisState.QUEUED)
    with database.session() as session:
        run = session.scalars(select(Submission)).one().latest_run
        assert run is not None
        run.state = "running"
    status = client.get(f"/submissions/{submission_id}/status").get_json()
    assert status["state"] == "running" and status["drawings_pending"] is False
    assert PENDING not in client.get(location).get_data(as_text=True)


def test_the_instructors_page_says_to_reload_rather_than_that_it_updates(
    client: FlaskClient, database: Database, course: Course, student: User, make_user: UserFactory
) -> None:
    _, submission_id, _ = _graded_page(client, database, course, AnalysisState.QUEUED)
    login(client, make_user(role=Role.INSTRUCTOR, course=course))
    page = client.get(f"/teach/submissions/{submission_id}").get_data(as_text=True)
    assert PREPARED in page and "reload this page in a moment" in page
    assert "updates by itself" not in page
