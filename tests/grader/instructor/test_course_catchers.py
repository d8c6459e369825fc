"""Catchers belong to a course: the same exercise in two courses, or copied twice into one,
draws its hidden trees under keys of its own, so what one course's instructor sees of
their hidden trees (an added implementation's check, the version's hidden-tree check)
tells nothing of another's; and they see only their own."""

from __future__ import annotations

import html

from flask.testing import FlaskClient
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.models import AddedImplementation, Course, Exercise, Role, VersionAnalysis
from grader.services import authoring
from grader.services.exercise_store import import_library, load_version
from grader.services.hidden_keys import exercise_key
from tests.grader.conftest import UserFactory, analysed
from tests.grader.instructor.helpers import (
    PROBLEM_ROW,
    figure_files,
    find_exercise,
    login,
    post_upload,
)
from tests.worker.added_sources import EXERCISES, MIN_NEVER_PRUNES, SLUG
from tests.worker.test_added_check import added
from worker.added_check import check_added
from worker.trees import cases


def other_course(database: Database, settings: Settings, title: str = "Search 102") -> Course:
    with database.session() as session:
        found = Course(title=title, join_code=title.replace(" ", "").upper())
        session.add(found)
        session.flush()
        import_library(session, settings, found)
    return found


def checked_keys(database: Database, added_id: int) -> tuple[set[str], set[str]]:
    """The public and hidden trees an added implementation was checked on, by content."""
    with database.session() as session:
        row = session.get(AddedImplementation, added_id)
        assert row is not None and row.result is not None
        trees = row.result["trees"]
    public = {tree["key"] for tree in trees if not tree["hidden"]}
    hidden = {tree["key"] for tree in trees if tree["hidden"]}
    return public, hidden


def test_two_courses_check_the_same_mistake_on_catchers_of_their_own(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    second = other_course(database, settings)
    first_id = added(database, course, make_user(Role.INSTRUCTOR, course), MIN_NEVER_PRUNES)
    second_id = added(database, second, make_user(Role.INSTRUCTOR, second), MIN_NEVER_PRUNES)
    check_added(database, settings, first_id)
    check_added(database, settings, second_id)

    first_public, first_hidden = checked_keys(database, first_id)
    second_public, second_hidden = checked_keys(database, second_id)

    assert first_public == second_public  # the public trees are the exercise's
    assert first_hidden and second_hidden
    assert not first_hidden & second_hidden


def test_a_copy_of_an_exercise_draws_other_hidden_trees(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    original = find_exercise(database, course, SLUG)
    assert original is not None
    files = {path.name: path.read_text() for path in (EXERCISES / SLUG).iterdir()}
    with database.session() as session:
        copied = authoring.upload(
            session, session.get(Course, course.id), f"{SLUG}-copy", files, teacher
        )  # type: ignore[arg-type]
        assert not isinstance(copied, list), copied
        copy = session.get(Exercise, copied.exercise.id)
        first = session.get(Exercise, original.id)
        assert copy is not None and first is not None
        keys = exercise_key(settings, first), exercise_key(settings, copy)
        model = load_version(settings, first.slug, first.current_version)  # type: ignore[arg-type]

    assert keys[0] != keys[1] != settings.hidden_tree_key
    drawn = [
        {case.tree for case in cases(model, key, settings.exercises_dir, "draw") if case.hidden}
        for key in keys
    ]
    assert not drawn[0] & drawn[1]


def test_an_instructor_sees_their_own_course_s_hidden_trees_only(
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    second = other_course(database, settings)
    analysed(database, settings, course, SLUG)
    analysed(database, settings, second, SLUG)
    mine, theirs = find_exercise(database, second, SLUG), find_exercise(database, course, SLUG)
    assert mine is not None and theirs is not None
    with database.session() as session:
        drawn = {}
        for exercise in (mine, theirs):
            found = session.scalars(
                select(VersionAnalysis).where(
                    VersionAnalysis.version_id == exercise.current_version_id
                )
            ).one()
            assert found.result is not None
            drawn[exercise.id] = [tree["tree"] for tree in found.result["hidden"]["trees"]]
    # The version's hidden-tree check of each course shows trees the other never draws.
    assert drawn[mine.id] and drawn[theirs.id]
    assert not [tree for tree in drawn[mine.id] if tree in drawn[theirs.id]]

    their_added = added(database, course, make_user(Role.INSTRUCTOR, course), MIN_NEVER_PRUNES)
    check_added(database, settings, their_added)
    login(client, make_user(Role.INSTRUCTOR, second))
    assert client.get(f"/teach/exercises/{mine.id}/").status_code == 200
    for page in (
        f"/teach/exercises/{theirs.id}/",
        f"/teach/exercises/{theirs.id}/library/{their_added}",
        f"/teach/exercises/{theirs.id}/library/{their_added}/status",
    ):
        assert client.get(page).status_code == 404, page


def test_an_upload_whose_hidden_trees_cannot_fit_the_budget_is_refused_at_its_key(
    client: FlaskClient, database: Database, course: Course, make_user: UserFactory
) -> None:
    login(client, make_user(Role.INSTRUCTOR, course))
    files = figure_files()
    files["exercise.yaml"] += b"hidden_trees:\n  max_depth: 10\n  max_branching: 8\n"
    line = files["exercise.yaml"].count(b"\n") - 1  # max_branching's line; max_depth's above

    response = post_upload(client, course, "huge-hidden-trees", files)

    page = response.get_data(as_text=True)
    assert response.status_code == 422, page
    [(file, found_line, column, message)] = PROBLEM_ROW.findall(page)
    assert (file, int(found_line), int(column)) == ("exercise.yaml", line, 14)
    assert "budget is 10,000 per tree" in html.unescape(message)
    assert find_exercise(database, course, "huge-hidden-trees") is None
