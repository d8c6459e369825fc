"""An uploaded exercise whose ``expect:`` contradicts its tree is refused, with the line."""

from __future__ import annotations

import html

from flask.testing import FlaskClient

from grader.db import Database
from grader.models import Course, Role
from tests.grader.conftest import UserFactory
from tests.grader.instructor.helpers import (
    PROBLEM_ROW,
    figure_files,
    find_exercise,
    login,
    post_upload,
)


def test_a_wrong_expected_value_is_shown_with_its_line_and_nothing_is_saved(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    files = figure_files()
    files["exercise.yaml"] = files["exercise.yaml"].replace(b"value: 3", b"value: 5")

    response = post_upload(client, course, "wrong-value", files)

    page = response.get_data(as_text=True)
    assert response.status_code == 422
    problems = [
        (file, int(line), int(column), html.unescape(message))
        for file, line, column, message in PROBLEM_ROW.findall(page)
    ]
    assert problems == [("exercise.yaml", 18, 14, "expected value 5, but alphabeta gives 3")]
    assert find_exercise(database, course, "wrong-value") is None
