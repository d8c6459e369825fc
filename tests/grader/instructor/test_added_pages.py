"""Known mistakes through the pages: the exercise page lists the shipped and the added wrong
implementations; an instructor adds one (pasted, or a .py file whose header fills the
form), sees it checked and which trees catch it, leaves it out, checks it again, deletes
it; other instructors and students find none of it."""

from __future__ import annotations

import html
import io

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update
from werkzeug.test import TestResponse

from grader.config import Settings
from grader.db import Database
from grader.models import AddedImplementation, AddedState, Course, Role
from tests.grader.conftest import UserFactory, configured, csrf_token
from tests.grader.instructor.helpers import find_exercise, login
from tests.worker.added_sources import ALPHABETA, MIN_NEVER_PRUNES, RAISES, SLUG
from worker.added_check import check_added

FIELDS = {
    "stem": "min_never_prunes",
    "name": "MIN nodes never prune",
    "explanation": "MIN-VALUE never compares v with alpha.",
    "pseudocode": "Figure 5.7, MIN-VALUE: if v <= alpha then return v",
    "hint": "What should MIN-VALUE compare v with?",
}


@pytest.fixture
def exercise_id(database: Database, course: Course) -> int:
    found = find_exercise(database, course, SLUG)
    assert found is not None
    return found.id


@pytest.fixture
def teacher(client: FlaskClient, course: Course, make_user: UserFactory) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))


def _post_new(client: FlaskClient, exercise_id: int, upload: bytes | None = None, **fields: str):  # type: ignore[no-untyped-def]
    data: dict[str, object] = {"csrf_token": csrf_token(client), **fields}
    if upload is not None:
        data["upload"] = (io.BytesIO(upload), "wrong_alpha_never_updated.py")
    return client.post(
        f"/teach/exercises/{exercise_id}/library/new",
        data=data,
        content_type="multipart/form-data",
    )


def _text(response: TestResponse) -> str:
    """The page's HTML, its entities read and its white space made single spaces."""
    return " ".join(html.unescape(response.get_data(as_text=True)).split())


def _rows(database: Database) -> list[AddedImplementation]:
    with database.session() as session:
        rows = list(session.scalars(select(AddedImplementation).order_by(AddedImplementation.id)))
        session.expunge_all()
    return rows


@pytest.mark.usefixtures("teacher")
def test_an_instructor_adds_one_and_sees_the_trees_that_catch_it(
    client: FlaskClient, database: Database, exercise_id: int
) -> None:
    page = client.get(f"/teach/exercises/{exercise_id}/").get_data(as_text=True)
    assert "Known mistakes" in page and "alpha never raised at MAX nodes" in page
    assert f"/teach/exercises/{exercise_id}/library/new" in page
    assert "No instructor has added" in page

    response = _post_new(client, exercise_id, source=MIN_NEVER_PRUNES, **FIELDS)

    assert response.status_code == 302
    (row,) = _rows(database)
    assert response.headers["Location"] == f"/teach/exercises/{exercise_id}/library/{row.id}"
    assert row.state == AddedState.READY  # checked in this process: tasks are eager here
    page = _text(client.get(response.headers["Location"]))
    assert "MIN nodes never prune" in page and "added/min_never_prunes" in page
    assert "Caught by 1 of 1 public tree and" in page
    assert "public tree fig5.2" in page and "hidden tree 1" in page
    assert "<caption>The trees it was checked on</caption>" in page
    assert '<svg class="tree"' in page  # the small trees, drawn
    assert "def min_value(game, state, alpha, beta):" in page
    listing = _text(client.get(f"/teach/exercises/{exercise_id}/"))
    assert 'data-implementation="added/min_never_prunes"' in listing
    assert "1 of 1 public" in listing


@pytest.mark.usefixtures("teacher")
def test_a_file_with_a_library_header_fills_the_form(
    client: FlaskClient, database: Database, exercise_id: int
) -> None:
    response = _post_new(
        client, exercise_id, upload=(ALPHABETA / "wrong_alpha_never_updated.py").read_bytes()
    )

    assert response.status_code == 302
    (row,) = _rows(database)
    assert (row.stem, row.name) == ("wrong_alpha_never_updated", "alpha never raised at MAX nodes")
    assert row.pseudocode == "Figure 5.7, MAX-VALUE: α ← MAX(α, v)"
    assert row.hint.startswith("When MAX-VALUE has found a good move")


@pytest.mark.usefixtures("teacher")
def test_a_refused_form_says_why_beside_each_field_and_keeps_the_code(
    client: FlaskClient, database: Database, exercise_id: int
) -> None:
    broken = "def max_value(game, state, alpha, beta):\n    return (\n"
    fields = {**FIELDS, "name": "", "stem": "Not A Slug"}

    response = _post_new(client, exercise_id, source=broken, **fields)

    page = _text(response)
    assert response.status_code == 422
    assert "Nothing was added" in page
    assert "Name the misconception" in page
    assert "Lower-case letters and digits only" in page
    assert "The code does not compile: line 2" in page
    assert "return (" in page  # kept in the textarea
    assert _rows(database) == []


@pytest.mark.usefixtures("teacher")
def test_a_file_that_is_not_text_is_refused(
    client: FlaskClient, database: Database, exercise_id: int
) -> None:
    response = _post_new(client, exercise_id, upload=b"\x00\x01binary", **FIELDS)

    assert response.status_code == 422
    assert "The file cannot be read: the file is binary" in response.get_data(as_text=True)
    assert _rows(database) == []


@pytest.mark.usefixtures("teacher")
def test_while_it_is_checked_the_page_polls_then_shows_the_result(
    app: Flask, client: FlaskClient, database: Database, settings: Settings, exercise_id: int
) -> None:
    configured(app, eager_tasks=False)  # the check waits in the broker
    response = _post_new(client, exercise_id, source=MIN_NEVER_PRUNES, **FIELDS)
    (row,) = _rows(database)
    assert row.state == AddedState.CHECKING and row.task_id  # its message was sent
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Checking it" in page and 'aria-live="polite"' in page
    assert '<noscript><meta http-equiv="refresh" content="3"></noscript>' in page
    assert "added_check.js" in page
    status = f"/teach/exercises/{exercise_id}/library/{row.id}/status"
    assert client.get(status).get_json() == {"state": "checking", "done": False}

    check_added(database, settings, row.id)

    assert client.get(status).get_json() == {"state": "ready", "done": True}
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "http-equiv" not in page and "The trees that catch it" in page


@pytest.mark.usefixtures("teacher")
def test_a_failed_check_shows_its_problem(
    client: FlaskClient, database: Database, exercise_id: int
) -> None:
    response = _post_new(client, exercise_id, source=RAISES, **FIELDS)

    page = _text(client.get(response.headers["Location"]))
    assert "The check failed" in page
    assert "it completed no tree: runtime error on fig5.2: ZeroDivisionError" in page


@pytest.mark.usefixtures("teacher")
def test_it_is_left_out_checked_again_against_the_current_version_and_deleted(
    client: FlaskClient, database: Database, exercise_id: int
) -> None:
    _post_new(client, exercise_id, source=MIN_NEVER_PRUNES, **FIELDS)
    (row,) = _rows(database)
    base = f"/teach/exercises/{exercise_id}/library/{row.id}"

    left_out = client.post(base + "/active", data={"csrf_token": csrf_token(client), "active": "0"})
    assert left_out.status_code == 302 and not _rows(database)[0].active
    assert "left out of diagnoses" in client.get(base).get_data(as_text=True)

    # As if the exercise had a new version since the check.
    with database.session() as session:
        session.execute(update(AddedImplementation).values(version_id=None))
    page = _text(client.get(base))
    assert "Checked against an older version of the exercise" in page
    assert "checked against an older version" in _text(
        client.get(f"/teach/exercises/{exercise_id}/")
    )
    again = client.post(base + "/check", data={"csrf_token": csrf_token(client)})
    assert again.status_code == 302
    checked = _rows(database)[0]
    assert checked.state == AddedState.READY and checked.version_id is not None
    assert "Checked against an older version" not in _text(client.get(base))

    deleted = client.post(base + "/delete", data={"csrf_token": csrf_token(client)})
    assert deleted.status_code == 302 and _rows(database) == []
    assert client.get(base).status_code == 404


@pytest.mark.usefixtures("teacher")
def test_a_change_without_its_csrf_token_is_refused(
    client: FlaskClient, database: Database, exercise_id: int
) -> None:
    _post_new(client, exercise_id, source=MIN_NEVER_PRUNES, **FIELDS)
    (row,) = _rows(database)

    response = client.post(f"/teach/exercises/{exercise_id}/library/{row.id}/delete")

    assert response.status_code == 400 and len(_rows(database)) == 1


def test_other_instructors_and_students_find_nothing(
    app: Flask,
    client: FlaskClient,
    database: Database,
    course: Course,
    make_user: UserFactory,
    exercise_id: int,
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    _post_new(client, exercise_id, source=MIN_NEVER_PRUNES, **FIELDS)
    (row,) = _rows(database)
    base = f"/teach/exercises/{exercise_id}/library"
    pages = [
        ("GET", f"{base}/new"),
        ("GET", f"{base}/{row.id}"),
        ("GET", f"{base}/{row.id}/status"),
    ]
    changes = [f"{base}/new", f"{base}/{row.id}/active", f"{base}/{row.id}/delete",
               f"{base}/{row.id}/check"]  # fmt: skip
    with database.session() as session:
        other = Course(title="Another course", join_code="OTHER1")
        session.add(other)
    outsiders = {
        "another course's instructor": make_user(Role.INSTRUCTOR, other),
        "a student of the course": make_user(Role.STUDENT, course),
    }
    answers = {}
    for who, user in outsiders.items():
        visitor = app.test_client()
        login(visitor, user)
        token = csrf_token(visitor)
        for method, path in pages:
            answers[f"{who} {method} {path}"] = visitor.open(path, method=method).status_code
        for path in changes:
            response = visitor.post(path, data={"csrf_token": token, **FIELDS, "active": "0"})
            answers[f"{who} POST {path}"] = response.status_code

    # Nor does its own instructor find it under another exercise of the course.
    other_exercise = find_exercise(database, course, "aima-fig5.2-minimax")
    assert other_exercise is not None
    elsewhere = f"/teach/exercises/{other_exercise.id}/library/{row.id}"
    answers["its instructor, under another exercise"] = client.get(elsewhere).status_code
    answers["its instructor, deleting it there"] = client.post(
        elsewhere + "/delete", data={"csrf_token": csrf_token(client)}
    ).status_code

    assert set(answers.values()) == {404}, answers
    (unchanged,) = _rows(database)
    assert unchanged.active and unchanged.state == AddedState.READY
    admin = app.test_client()
    login(admin, make_user(Role.ADMIN))
    assert admin.get(f"{base}/{row.id}").status_code == 200
