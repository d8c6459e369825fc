"""An uploaded exercise file with a YAML tag is refused with its line, never a 500."""

from __future__ import annotations

import html

import pytest
from flask.testing import FlaskClient

from grader.db import Database
from grader.models import Course, Role, User
from reference.yamldoc import TAG_REFUSED
from tests.grader.conftest import UserFactory
from tests.grader.instructor.helpers import PROBLEM_ROW, figure_files, find_exercise, post_upload

TAGS = [
    b'!!python/object/apply:os.system ["true"]',
    b"!!python/name:os.system",
    b"!!binary aGVsbG8=",
    b"!foo bar",
]


@pytest.mark.parametrize("tag", TAGS, ids=["apply", "name", "binary", "custom"])
def test_a_tagged_exercise_file_is_refused_with_its_line(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory, tag: bytes
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    files = figure_files()
    lines = files["exercise.yaml"].split(b"\n")
    assert lines[0].startswith(b"title: ")
    files["exercise.yaml"] = b"\n".join([b"title: " + tag, *lines[1:]])

    response = post_upload(client, course, "tagged", files)

    page = response.get_data(as_text=True)
    assert response.status_code == 422, page
    problems = [
        (file, int(line), int(column), html.unescape(message))
        for file, line, column, message in PROBLEM_ROW.findall(page)
    ]
    assert problems == [("exercise.yaml", 1, 8, TAG_REFUSED)]
    assert find_exercise(database, course, "tagged") is None


def test_a_tagged_tree_file_is_refused_with_its_line(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    files = figure_files()
    tree = files["fig5.2.tree.yaml"]
    files["fig5.2.tree.yaml"] = tree.replace(b"B1: 3", b"B1: !!python/object/apply:os.getcwd []")
    assert files["fig5.2.tree.yaml"] != tree

    response = post_upload(client, course, "tagged-tree", files)

    page = response.get_data(as_text=True)
    assert response.status_code == 422, page
    messages = [html.unescape(message) for *_, message in PROBLEM_ROW.findall(page)]
    assert TAG_REFUSED in messages
    assert find_exercise(database, course, "tagged-tree") is None


def login(client: FlaskClient, user: User) -> None:
    """Signed in as ``user`` through Flask-Login's session key (``User.get_id``)."""
    with client.session_transaction() as session:
        session["_user_id"] = user.get_id()
        session["_fresh"] = True
