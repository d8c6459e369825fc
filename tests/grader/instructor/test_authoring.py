"""Instructors upload an exercise folder as a draft, preview it, publish it; who may."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient
from sqlalchemy import func, select

from grader.db import Database
from grader.models import Course, Exercise, ExerciseVersion, Role
from tests.grader.conftest import UserFactory, csrf_token
from tests.grader.instructor.helpers import (
    PROBLEM_ROW,
    figure_files,
    find_exercise,
    login,
    post_upload,
)


def _problems(page: str) -> list[tuple[str, int, int, str]]:
    return [
        (file, int(line), int(column), html.unescape(message))
        for file, line, column, message in PROBLEM_ROW.findall(page)
    ]


def _count_versions(database: Database) -> int:
    with database.session() as session:
        return session.scalar(select(func.count()).select_from(ExerciseVersion)) or 0


def test_an_uploaded_folder_is_a_draft_with_a_preview_until_published(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))

    response = post_upload(client, course, "my-figure", figure_files())

    assert response.status_code == 302, response.get_data(as_text=True)
    draft = find_exercise(database, course, "my-figure")
    assert draft is not None
    assert not draft.published and draft.current_version_id is None
    preview = client.get(response.headers["Location"])
    page = html.unescape(preview.get_data(as_text=True))
    assert preview.status_code == 200
    assert "Saved draft version" in page
    # The reference trace, step by step, starting at the root.
    assert re.search(r"Step <span class=\"number\">1</span> of 40", page)
    assert "enter A (MAX, depth 0) alpha=-inf beta=+inf" in page
    assert "cutoff C: v=2 <= alpha=3, pruned C2, C3" in page
    assert re.search(r'class="node[^"]*current[^"]*" data-node="A"', page)
    # The hidden-tree check: which hidden trees catch which wrong implementation.
    assert 'data-implementation="alphabeta/wrong_no_pruning"' in page
    assert "hidden-1" in page
    assert "All 18 wrong implementations fail at least one hidden tree" in page
    # How a student's score is made, as students will read it before their first attempt.
    assert "How a student's score is made (as students read it)" in page
    assert "Each public tree: 30 points for the root's value" in page

    stepped = client.get(response.headers["Location"] + "?tree=fig5.2&step=2")
    page = html.unescape(stepped.get_data(as_text=True))
    assert re.search(r"Step <span class=\"number\">3</span> of 40", page)
    assert re.search(r'class="node[^"]*current[^"]*" data-node="B1"', page)
    assert not re.search(r'class="node[^"]*current[^"]*" data-node="A"', page)

    publish = re.search(r'action="([^"]+/publish)"', page)
    assert publish is not None
    done = client.post(publish.group(1), data={"csrf_token": csrf_token(client)})
    assert done.status_code == 302
    with database.session() as session:
        visible = session.scalars(
            select(Exercise.slug).where(Exercise.course_id == course.id, Exercise.published)
        ).all()
        exercise = session.scalars(select(Exercise).where(Exercise.slug == "my-figure")).one()
        assert exercise.current_version_id is not None
        version = session.get(ExerciseVersion, exercise.current_version_id)
        assert version is not None and version.exercise_id == exercise.id
    assert "my-figure" in visible
    overview = client.get("/teach/").get_data(as_text=True)
    assert 'data-slug="my-figure"' in overview


def test_every_problem_is_shown_with_file_line_and_column_and_nothing_is_saved(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    files = figure_files()
    exercise_yaml = files["exercise.yaml"].decode().replace("decision: a1", "decision: a9")
    exercise_yaml += "  - name: second\n    file: second.tree.yaml\n"
    second = files["fig5.2.tree.yaml"].decode().replace("C2: 4", "C2: four")
    uploaded = {
        "exercise.yaml": exercise_yaml.encode(),
        "fig5.2.tree.yaml": files["fig5.2.tree.yaml"],
        "second.tree.yaml": second.encode(),
        "notes.yaml": b"\x89PNG\r\n\x1a\n\x00\x00binary",
    }
    versions_before = _count_versions(database)

    response = post_upload(client, course, "broken-figure", uploaded)

    page = response.get_data(as_text=True)
    assert response.status_code == 422
    problems = _problems(page)
    assert ("exercise.yaml", 19, 17, "decision 'a9' is not an action of the root") in problems
    assert (
        "second.tree.yaml",
        14,
        7,
        "expected a number or MAX, MIN, CHANCE, found 'four'",
    ) in problems
    assert any(file == "notes.yaml" and "binary" in message for file, _, _, message in problems)
    assert "3 problems found; nothing was saved" in page
    # The form keeps the slug and the files' texts, to be corrected in place.
    assert 'value="broken-figure"' in page
    assert "C2: four" in html.unescape(page)
    assert find_exercise(database, course, "broken-figure") is None
    assert _count_versions(database) == versions_before


def test_a_malformed_exercise_file_and_a_file_that_is_not_utf8(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    files = figure_files()
    files["exercise.yaml"] = files["exercise.yaml"].replace(
        b"algorithm: alphabeta", b"algorithm: alphabeta\ncolour: blue"
    )
    files["fig5.2.tree.yaml"] = files["fig5.2.tree.yaml"].replace(b"AIMA", b"AIMA \xe9t\xe9")

    page = post_upload(client, course, "bad-yaml", files).get_data(as_text=True)

    problems = _problems(page)
    assert ("exercise.yaml", 3, 1) in [problem[:3] for problem in problems]
    assert any("unknown key 'colour'" in problem[3] for problem in problems)
    assert any(
        file == "fig5.2.tree.yaml" and (line, column) == (1, 13) and "not UTF-8" in message
        for file, line, column, message in problems
    )
    assert find_exercise(database, course, "bad-yaml") is None


def test_corrected_texts_kept_in_the_form_are_saved(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    files = {name: content.decode() for name, content in figure_files().items()}
    response = client.post(
        f"/teach/courses/{course.id}/exercises/new",
        data={
            "csrf_token": csrf_token(client),
            "slug": "typed-in",
            "kept_name": list(files),
            "kept_text": [text.replace("\n", "\r\n") for text in files.values()],
        },
    )
    assert response.status_code == 302
    exercise = find_exercise(database, course, "typed-in")
    assert exercise is not None
    with database.session() as session:
        version = session.scalars(
            select(ExerciseVersion).where(ExerciseVersion.exercise_id == exercise.id)
        ).one()
        assert version.files == files


def test_the_same_files_twice_are_the_same_version(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))

    first = post_upload(client, course, "twice", figure_files())
    second = post_upload(client, course, "twice", figure_files())

    assert first.headers["Location"] == second.headers["Location"]
    page = client.get(second.headers["Location"]).get_data(as_text=True)
    assert "nothing new was saved" in page
    changed = figure_files()
    changed["fig5.2.tree.yaml"] = changed["fig5.2.tree.yaml"].replace(b"D3: 2", b"D3: 1")
    third = post_upload(client, course, "twice", changed)
    assert third.headers["Location"] != first.headers["Location"]
    with database.session() as session:
        exercise = session.scalars(select(Exercise).where(Exercise.slug == "twice")).one()
        count = session.scalar(
            select(func.count())
            .select_from(ExerciseVersion)
            .where(ExerciseVersion.exercise_id == exercise.id)
        )
    assert count == 2


def test_a_new_version_of_a_published_exercise_stays_a_draft(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    before = find_exercise(database, course, "aima-fig5.2-alphabeta")
    assert before is not None and before.published
    changed = figure_files()
    changed["fig5.2.tree.yaml"] = changed["fig5.2.tree.yaml"].replace(b"D3: 2", b"D3: 1")

    response = post_upload(client, course, "aima-fig5.2-alphabeta", changed)

    assert response.status_code == 302
    after = find_exercise(database, course, "aima-fig5.2-alphabeta")
    assert after is not None and after.id == before.id
    assert after.current_version_id == before.current_version_id
    assert f"/teach/exercises/{before.id}/versions/" in response.headers["Location"]


def test_a_bad_slug_is_refused_with_the_files_kept(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    response = post_upload(client, course, "../Up", figure_files())
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 422
    assert "the slug may hold lower-case letters" in page
    assert "kept_text" in page


def test_students_may_not_teach(
    client: FlaskClient, course: Course, make_user: UserFactory
) -> None:
    assert client.get("/teach/").status_code == 302  # to the sign-in page
    login(client, make_user(Role.STUDENT, course))
    assert client.get("/teach/").status_code == 403
    assert client.get(f"/teach/courses/{course.id}/exercises/new").status_code == 403


def test_an_instructor_of_another_course_finds_nothing_here(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    with database.session() as session:
        other = Course(title="Other", join_code="OTHER")
        session.add(other)
    login(client, make_user(Role.INSTRUCTOR, other))
    exercise = find_exercise(database, course, "aima-fig5.2-alphabeta")
    assert exercise is not None
    version = exercise.current_version_id
    token = csrf_token(client)

    assert "Search 101" not in client.get("/teach/").get_data(as_text=True)
    for url in (
        f"/teach/exercises/{exercise.id}/",
        f"/teach/exercises/{exercise.id}/versions/{version}",
        f"/teach/exercises/{exercise.id}/class-results",
        f"/teach/exercises/{exercise.id}/grades.csv",
        f"/teach/courses/{course.id}/exercises/new",
    ):
        assert client.get(url).status_code == 404, url
    for url in (
        f"/teach/exercises/{exercise.id}/regrade",
        f"/teach/exercises/{exercise.id}/versions/{version}/publish",
    ):
        assert client.post(url, data={"csrf_token": token}).status_code == 404, url


def test_admins_see_every_course(
    client: FlaskClient, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.ADMIN))
    page = client.get("/teach/").get_data(as_text=True)
    assert "Search 101" in page
    assert 'data-slug="aima-fig5.2-alphabeta"' in page


def test_forms_need_their_csrf_token(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    exercise = find_exercise(database, course, "aima-fig5.2-alphabeta")
    assert exercise is not None
    assert client.post(f"/teach/exercises/{exercise.id}/regrade").status_code == 400
    response = client.post(f"/teach/courses/{course.id}/exercises/new", data={"slug": "no-token"})
    assert response.status_code == 400
    assert find_exercise(database, course, "no-token") is None


def test_a_version_is_previewed_only_under_its_own_exercise(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    alphabeta = find_exercise(database, course, "aima-fig5.2-alphabeta")
    minimax = find_exercise(database, course, "aima-fig5.2-minimax")
    assert alphabeta is not None and minimax is not None

    url = f"/teach/exercises/{minimax.id}/versions/{alphabeta.current_version_id}"

    assert client.get(url).status_code == 404
    assert client.post(url + "/publish", data={"csrf_token": csrf_token(client)}).status_code == 404
