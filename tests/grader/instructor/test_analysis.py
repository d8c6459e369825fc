"""A version's analysis: the upload stores the files and queues it, a worker expands the
games and traces the trees into the version's ``VersionAnalysis``, and the pages read it."""

from __future__ import annotations

import html
import shutil
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from grader.config import Settings
from grader.db import Database
from grader.models import (
    AnalysisState,
    Course,
    Exercise,
    ExerciseVersion,
    Role,
    VersionAnalysis,
    utcnow,
)
from grader.services.analyses import analyse, stuck_analyses
from grader.services.jobs import reap
from tests.grader.conftest import UserFactory, configured, csrf_token
from tests.grader.instructor.helpers import find_exercise, login, post_upload

FULL_GAME = b"""title: The whole game
algorithm: minimax
trees:
  - name: full
    game: {name: tictactoe}
"""
SMALL_GAME = b"""title: Two moves in
algorithm: minimax
trees:
  - name: corner
    game: {name: tictactoe, options: {position: "OX./.X./..."}}
"""
WRONG_COUNT = b"""title: Two moves in
algorithm: minimax
trees:
  - name: corner
    game: {name: tictactoe, options: {position: "OX./.X./..."}}
    expect: {nodes: 3}
"""


@pytest.fixture
def instructor(client: FlaskClient, course: Course, make_user: UserFactory) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))


@pytest.fixture
def queued_only(app: Flask) -> None:
    """Tasks go to the broker (a SQLite file) and no worker takes them: the analysis stays
    queued until a test runs it in this process."""
    configured(app, eager_tasks=False)


def _version(database: Database, course: Course, slug: str) -> tuple[Exercise, ExerciseVersion]:
    exercise = find_exercise(database, course, slug)
    assert exercise is not None
    with database.session() as session:
        version = session.query(ExerciseVersion).filter_by(exercise_id=exercise.id).one()
        session.expunge(version)
    return exercise, version


def _analysis(database: Database, version_id: int) -> VersionAnalysis:
    with database.session() as session:
        row = session.get(VersionAnalysis, version_id)
        assert row is not None
        session.refresh(row, ["result"])
        session.expunge(row)
    return row


@pytest.mark.usefixtures("instructor", "queued_only")
def test_the_full_tictactoe_upload_is_saved_and_its_analysis_queued_not_done(
    client: FlaskClient, database: Database, settings: Settings, course: Course
) -> None:
    response = post_upload(client, course, "whole-game", {"exercise.yaml": FULL_GAME})

    assert response.status_code == 302
    exercise, version = _version(database, course, "whole-game")
    row = _analysis(database, version.id)
    assert row.state == AnalysisState.QUEUED and row.result is None
    assert row.task_id  # its message reached the broker
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Analysing this version" in page and "<progress" in page
    assert f"/teach/exercises/{exercise.id}/versions/{version.id}/analysis" in page
    assert 'http-equiv="refresh"' in page and "analysis.js" in page
    assert "Reference trace" not in page and 'class="publish"' not in page


@pytest.mark.usefixtures("instructor", "queued_only")
def test_the_analysis_fills_its_row_and_the_preview_then_shows_the_traces(
    client: FlaskClient, database: Database, settings: Settings, course: Course
) -> None:
    post_upload(client, course, "two-moves", {"exercise.yaml": SMALL_GAME})
    exercise, version = _version(database, course, "two-moves")
    preview = f"/teach/exercises/{exercise.id}/versions/{version.id}"
    assert client.get(preview + "/analysis").get_json() == {
        "state": "queued",
        "stage": "",
        "progress": 0.0,
        "error": None,
        "done": False,
    }

    assert analyse(database, settings, version.id, _analysis(database, version.id).task_id or "")
    assert analyse(database, settings, version.id, "a second task") == "done already"

    row = _analysis(database, version.id)
    assert row.state == AnalysisState.DONE and row.progress == 1.0 and row.finished_at
    assert row.result is not None and row.result["trees"][0]["nodes"] == 1055
    status = client.get(preview + "/analysis").get_json()
    assert status["state"] == "done" and status["progress"] == 1.0 and status["done"]
    page = html.unescape(client.get(preview).get_data(as_text=True))
    assert "Analysing this version" not in page and 'http-equiv="refresh"' not in page
    assert "Tree corner" in page and "1,055 nodes" in page and 'class="stepper"' in page
    assert '<svg class="tree"' in page and "Hidden-tree check" in page
    assert 'class="publish"' in page


def test_the_preview_draws_the_stored_result_without_loading_the_version(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    instructor: None,
) -> None:
    post_upload(client, course, "two-moves", {"exercise.yaml": SMALL_GAME})  # analysed eagerly
    exercise, version = _version(database, course, "two-moves")
    # The version's files now say something the full load refuses (the game's tree has
    # 1,055 nodes, not 3), and its folder is written out again from them: a page that
    # loaded the version would show that problem, not the stored traces.
    with database.session() as session:
        stored = session.get(ExerciseVersion, version.id)
        assert stored is not None
        stored.files = {"exercise.yaml": WRONG_COUNT.decode()}
    shutil.rmtree(settings.instance_dir / "versions" / version.content_hash)

    page = html.unescape(
        client.get(f"/teach/exercises/{exercise.id}/versions/{version.id}").get_data(as_text=True)
    )

    assert "Tree corner" in page and "1,055 nodes" in page and 'class="stepper"' in page
    assert "Problems" not in page and "expected nodes 3" not in page


@pytest.mark.usefixtures("instructor")
def test_problems_the_analysis_finds_are_shown_like_the_uploads_and_block_publishing(
    client: FlaskClient, database: Database, course: Course
) -> None:
    response = post_upload(client, course, "wrong-count", {"exercise.yaml": WRONG_COUNT})
    assert response.status_code == 302  # the cheap check does not expand the game
    exercise, version = _version(database, course, "wrong-count")
    preview = f"/teach/exercises/{exercise.id}/versions/{version.id}"

    page = html.unescape(client.get(preview).get_data(as_text=True))

    assert "exercise.yaml:6:21" in page and "expected nodes 3, but the tree has 1055" in page
    assert "Reference trace" not in page and 'class="publish"' not in page
    publish = client.post(preview + "/publish", data={"csrf_token": csrf_token(client)})
    assert publish.status_code == 302
    page = html.unescape(client.get(preview).get_data(as_text=True))
    assert "This version has problems" in page
    assert find_exercise(database, course, "wrong-count").current_version_id is None  # type: ignore[union-attr]


@pytest.mark.usefixtures("instructor", "queued_only")
def test_a_version_still_being_analysed_is_not_published(
    client: FlaskClient, database: Database, course: Course
) -> None:
    post_upload(client, course, "two-moves", {"exercise.yaml": SMALL_GAME})
    exercise, version = _version(database, course, "two-moves")
    preview = f"/teach/exercises/{exercise.id}/versions/{version.id}"

    client.post(preview + "/publish", data={"csrf_token": csrf_token(client)})

    page = html.unescape(client.get(preview).get_data(as_text=True))
    assert "still being analysed" in page
    found = find_exercise(database, course, "two-moves")
    assert found is not None and found.current_version_id is None and not found.published


@pytest.mark.usefixtures("instructor")
def test_a_failed_analysis_shows_its_error_and_runs_again(
    client: FlaskClient, database: Database, course: Course
) -> None:
    post_upload(client, course, "two-moves", {"exercise.yaml": SMALL_GAME})
    exercise, version = _version(database, course, "two-moves")
    with database.session() as session:  # as a worker whose analysis raised stores it
        row = session.get(VersionAnalysis, version.id)
        assert row is not None
        row.state, row.stage, row.error = AnalysisState.FAILED, "failed", "MemoryError"
    preview = f"/teach/exercises/{exercise.id}/versions/{version.id}"

    page = client.get(preview).get_data(as_text=True)
    assert "The analysis failed" in page and "MemoryError" in page
    assert "Run again</button>" in page and "Reference trace" not in page
    assert client.get(preview + "/analysis").get_json()["state"] == "failed"

    again = client.post(preview + "/analysis/again", data={"csrf_token": csrf_token(client)})

    assert again.status_code == 302 and again.headers["Location"].endswith(preview)
    assert _analysis(database, version.id).state == AnalysisState.DONE  # eager: run at once
    page = html.unescape(client.get(preview).get_data(as_text=True))
    assert "The analysis failed" not in page and "Tree corner" in page


@pytest.mark.usefixtures("instructor")
def test_run_again_needs_its_csrf_token_and_the_status_is_the_courses_teachers_only(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory, app: Flask
) -> None:
    post_upload(client, course, "two-moves", {"exercise.yaml": SMALL_GAME})
    exercise, version = _version(database, course, "two-moves")
    status = f"/teach/exercises/{exercise.id}/versions/{version.id}/analysis"
    assert client.post(status + "/again").status_code == 400
    other = app.test_client()
    login(other, make_user(Role.INSTRUCTOR))  # teaches no course
    assert other.get(status).status_code == 404


@pytest.mark.usefixtures("instructor", "queued_only")
def test_the_reaper_sends_again_an_analysis_never_sent_or_whose_worker_was_lost(
    client: FlaskClient, database: Database, settings: Settings, course: Course
) -> None:
    with database.session() as session:
        # The shipped exercises' versions were made without analyses: the reaper makes them.
        while stuck_analyses(session, settings):
            pass
    for slug in ("first", "second", "third"):
        post_upload(client, course, slug, {"exercise.yaml": SMALL_GAME})
    ids = [_version(database, course, slug)[1].id for slug in ("first", "second", "third")]
    long_ago = utcnow() - timedelta(hours=1)
    with database.session() as session:
        never_sent, lost, fine = (session.get(VersionAnalysis, i) for i in ids)
        assert never_sent and lost and fine
        never_sent.task_id, never_sent.queued_at = None, long_ago
        lost.state, lost.started_at, lost.task_id = AnalysisState.RUNNING, long_ago, "dead"

    with database.session() as session:
        assert sorted(stuck_analyses(session, settings)) == ids[:2]

    assert _analysis(database, ids[1]).state == AnalysisState.QUEUED
    with database.session() as session:
        assert stuck_analyses(session, settings) == []  # queued again just now


@pytest.mark.slow
def test_a_version_without_an_analysis_is_shown_as_prepared_and_the_reaper_makes_it(
    app: Flask, database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    # The library's exercises are published without an analysis (as before analyses).
    exercise = find_exercise(database, course, "aima-fig5.2-alphabeta")
    assert exercise is not None and exercise.current_version_id is not None
    student = app.test_client()
    login(student, make_user(Role.STUDENT, course))

    first = student.get(f"/exercises/{exercise.id}").get_data(as_text=True)

    assert "The drawings of the trees are being prepared" in first and "<svg" not in first
    with database.session() as session:  # a page read asks for nothing
        assert session.get(VersionAnalysis, exercise.current_version_id) is None
    queue = app.extensions["grader.queue"]
    assert reap(database, settings, queue) >= 1  # eager: analysed after the reaper's commit
    assert _analysis(database, exercise.current_version_id).state == AnalysisState.DONE
    second = student.get(f"/exercises/{exercise.id}").get_data(as_text=True)
    assert "being prepared" not in second and 'data-node="C2"' in second
