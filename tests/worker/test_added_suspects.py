"""The implementations instructors added, as suspects of a grading's diagnosis: only the
active ones, checked against the version graded and caught by some tree, read in one
query; a student's search that is one of them is diagnosed as it, exactly, through the
grading and through the worker's run."""

from __future__ import annotations

from sqlalchemy import select, update

from grader.config import Settings
from grader.db import Database
from grader.models import AddedImplementation, Course, Exercise, ExerciseVersion, Role
from grader.services.exercise_store import load_version, materialize
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK
from reference.diagnosis.stored import tree_key
from reference.hidden import DEVELOPMENT_KEY
from reference.report import Report
from tests.grader.conftest import Backend, UserFactory, counted, stored_report
from tests.worker.added_sources import (
    CORRECT_SOURCE,
    EXERCISES,
    MIN_NEVER_PRUNES,
    RAISES,
    SHIPPED,
    SHIPPED_SOURCE,
    SLUG,
)
from tests.worker.test_added_check import added
from worker.added_check import check_added
from worker.added_suspects import AddedBudget, added_suspects
from worker.grading import grade
from worker.trees import cases


def current(
    settings: Settings, database: Database, course: Course, slug: str = SLUG
) -> tuple[Exercise, ExerciseVersion]:
    """The exercise ``slug`` of ``course`` and its current version, its files written out
    (as the worker's run does before it grades)."""
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
        ).one()
        version = exercise.current_version
        assert version is not None
        materialize(settings, slug, version)
        session.expunge_all()
    return exercise, version


def test_the_suspects_are_the_usable_ones_read_in_one_query(backend: Backend) -> None:
    database, settings, course = backend.database, backend.settings, backend.course
    author = backend.user(Role.INSTRUCTOR)
    usable = added(database, course, author, MIN_NEVER_PRUNES, "min_never_prunes")
    left_out = added(database, course, author, SHIPPED_SOURCE, "left_out")
    older = added(database, course, author, SHIPPED_SOURCE, "older")
    correct = added(database, course, author, CORRECT_SOURCE, "correct")
    failed = added(database, course, author, RAISES, "raises")
    for added_id in (usable, left_out, older, correct, failed):
        check_added(database, settings, added_id)
    with database.session() as session:
        session.execute(
            update(AddedImplementation)
            .where(AddedImplementation.id == left_out)
            .values(active=False)
        )
        session.execute(
            update(AddedImplementation)
            .where(AddedImplementation.id == older)
            .values(version_id=None)
        )
    exercise, version = current(settings, database, course)
    model = load_version(settings, exercise.slug, version)

    with database.session() as session, counted(database) as statements:
        suspects = added_suspects(session, exercise, version, model)
    selects = [text for text in statements if text.lstrip().upper().startswith("SELECT")]

    assert len(selects) == 1
    assert [suspect.name for suspect in suspects] == ["added/min_never_prunes"]
    told = suspects[0].told
    assert told.name == "MIN nodes never prune"
    assert told.pseudocode == "Figure 5.7, MIN-VALUE: if v <= alpha then return v"
    with database.session() as session:
        row = session.get(AddedImplementation, usable)
        assert row is not None and row.result is not None
        keys = {tree["key"] for tree in row.result["trees"]}
    assert set(suspects[0].stored) == keys


def test_an_exercise_without_added_implementations_has_no_suspect_for_one_query(
    backend: Backend,
) -> None:
    exercise, version = current(
        backend.settings, backend.database, backend.course, "aima-fig5.2-minimax"
    )
    model = load_version(backend.settings, exercise.slug, version)

    with backend.database.session() as session, counted(backend.database) as statements:
        suspects = added_suspects(session, exercise, version, model)

    assert suspects == []
    assert len(statements) == 1


def _graded(settings: Settings, database: Database, course: Course, source: str) -> Report:
    exercise, version = current(settings, database, course)
    model = load_version(settings, exercise.slug, version)
    with database.session() as session:
        # The slow lane's budget for the runs on fresh trees, with room to spare.
        suspects = added_suspects(session, exercise, version, model, budget=AddedBudget(30.0))
    return grade(
        model,
        source,
        "student.py",
        key=DEVELOPMENT_KEY,
        exercises_dir=EXERCISES,
        draw="a student's draw",
        added=suspects,
    )


def test_a_search_that_is_the_added_mistake_is_diagnosed_as_it_exactly(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    added_id = added(database, course, make_user(Role.INSTRUCTOR, course), MIN_NEVER_PRUNES)
    check_added(database, settings, added_id)
    # Some of the draw's hidden trees are fresh: the suspect runs there in the sandbox.
    exercise, version = current(settings, database, course)
    model = load_version(settings, exercise.slug, version)
    with database.session() as session:
        stored = added_suspects(session, exercise, version, model)[0].stored
    drawn = cases(model, DEVELOPMENT_KEY, EXERCISES, "a student's draw")
    assert any(tree_key(case.tree) not in stored for case in drawn)

    report = _graded(settings, database, course, MIN_NEVER_PRUNES)

    diagnosis = report.diagnosis
    assert diagnosis is not None and diagnosis.exact
    assert [found.implementations for found in diagnosis.misconceptions] == [
        ["added/min_never_prunes"]
    ]
    first = diagnosis.misconceptions[0]
    assert first.name == "MIN nodes never prune"
    assert first.trees_matched == diagnosis.trees == len(report.cases)


def test_without_the_added_one_the_same_search_is_not_named_exactly(
    settings: Settings, database: Database, course: Course
) -> None:
    report = _graded(settings, database, course, MIN_NEVER_PRUNES)

    assert report.diagnosis is not None and not report.diagnosis.exact


def test_a_copy_of_a_shipped_mistake_is_named_with_it_as_its_equivalent(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    added_id = added(database, course, make_user(Role.INSTRUCTOR, course), SHIPPED_SOURCE, "mine")
    check_added(database, settings, added_id)

    report = _graded(settings, database, course, SHIPPED_SOURCE)

    diagnosis = report.diagnosis
    assert diagnosis is not None and diagnosis.exact
    assert [sorted(found.implementations) for found in diagnosis.misconceptions] == [
        sorted([SHIPPED, "added/mine"])
    ]


def test_the_worker_s_run_diagnoses_a_submission_as_the_added_mistake(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    added_id = added(database, course, make_user(Role.INSTRUCTOR, course), MIN_NEVER_PRUNES)
    check_added(database, settings, added_id)
    student = make_user(Role.STUDENT, course)
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        ).one()
        submission = submit(session, settings, student, exercise, "mine.py", MIN_NEVER_PRUNES)
        run_id = submission.runs[0].id

    assert Queue(settings, database).send(GRADE_TASK, [run_id]) == 1

    report = stored_report(database, run_id)
    assert report is not None and report["verdict"] == "failed"
    diagnosis = report["diagnosis"]
    assert diagnosis["exact"]
    assert [found["implementations"] for found in diagnosis["misconceptions"]] == [
        ["added/min_never_prunes"]
    ]
