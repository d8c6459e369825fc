"""An upload with problems in exercise.yaml and in two tree files shows them all at once,
in file order, with the slug's own problem beside them: one try, not a wave per fix."""

from __future__ import annotations

import html

from flask.testing import FlaskClient

from grader.db import Database
from grader.models import Course, Role
from grader.services.exercise_store import check_files
from tests.grader.conftest import UserFactory
from tests.grader.instructor.helpers import (
    PROBLEM_ROW,
    figure_files,
    find_exercise,
    login,
    post_upload,
)

EXERCISE = (
    "title: Two trees\n"
    "algorithm: alphabeta\n"
    "scoring: {value: 30, decisions: 10}\n"  # 3: an unknown key
    "trees:\n"
    "  - name: fig5.2\n"
    "    file: fig5.2.tree.yaml\n"
    "  - name: second\n"
    "    file: second.tree.yaml\n"
)

SECOND = (
    "root: A\n"
    "nodes:\n"
    "  A: {kind: MAX, children: {a1: B, a2: C}}\n"  # 3: C is defined nowhere
    "  B: {kind: MIN, children: {b1: B1}, colour: red}\n"  # 4: an unknown key
    "  B1: 1e999\n"  # 5: too large
    "  E: 2\n"  # 6: unreachable
)


def shown_problems(page: str) -> list[tuple[str, int, int, str]]:
    return [
        (file, int(line), int(column), html.unescape(message))
        for file, line, column, message in PROBLEM_ROW.findall(page)
    ]


def broken_upload() -> dict[str, bytes]:
    figure = figure_files()["fig5.2.tree.yaml"].decode()
    figure = figure.replace("C2: 4", "C2: four").replace("d3: D3", "d3: D9")
    return {
        "exercise.yaml": EXERCISE.encode(),
        "fig5.2.tree.yaml": figure.encode(),
        "second.tree.yaml": SECOND.encode(),
    }


def test_problems_in_exercise_yaml_and_two_tree_files_are_shown_in_one_pass(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))

    response = post_upload(client, course, "two-trees", broken_upload())

    assert response.status_code == 422
    problems = shown_problems(response.get_data(as_text=True))
    assert [problem[:3] for problem in problems] == [
        ("exercise.yaml", 3, 22),
        ("fig5.2.tree.yaml", 14, 7),
        ("fig5.2.tree.yaml", 16, 49),
        ("fig5.2.tree.yaml", 19, 3),
        ("second.tree.yaml", 3, 40),
        ("second.tree.yaml", 4, 38),
        ("second.tree.yaml", 5, 7),
        ("second.tree.yaml", 6, 3),
    ]
    messages = [problem[3] for problem in problems]
    assert messages[0].startswith("unknown key 'decisions'")
    assert messages[1] == "expected a number or MAX, MIN, CHANCE, found 'four'"
    assert messages[2] == "'D' leads to 'D9', which is not defined"
    assert messages[3] == "node 'D3' is not reachable from the root 'A'"
    assert messages[4] == "'A' leads to 'C', which is not defined"
    assert messages[5].startswith("unknown key 'colour' in node 'B'")
    assert "'1e999' is too large" in messages[6]
    assert messages[7] == "node 'E' is not reachable from the root 'A'"
    assert find_exercise(database, course, "two-trees") is None


def test_a_bad_slug_does_not_hide_the_problems_of_the_files(
    client: FlaskClient, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))

    response = post_upload(client, course, "Two Trees", broken_upload())

    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 422
    assert "the slug may hold lower-case letters" in page
    assert len(shown_problems(page)) == 8
    assert "not a valid slug" not in page


def test_a_file_name_that_is_not_plain_is_reported_beside_the_other_files_problems() -> None:
    files = {name: content.decode() for name, content in broken_upload().items()}
    files[".notes.yaml"] = "anything: at all\n"

    problems = check_files("two-trees", files)

    assert isinstance(problems, list)
    first, *others = problems
    assert (first.file, first.message) == (".notes.yaml", "not a plain file name")
    assert len(others) == 8
