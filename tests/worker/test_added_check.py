"""An instructor's wrong implementation, checked for real in the sandbox: the trees that
catch it and its signatures there, the same as the shipped library's trusted run of the
same code; one that searches like the reference is caught by none; one that never
completes fails with a readable problem; the check is stored once."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.models import AddedImplementation, AddedState, Course, Exercise, Role, User
from grader.services import added_implementations as library
from reference.diagnosis import trusted_signature
from reference.diagnosis.stored import signature_from_json, tree_key
from reference.exercises import load_catalog
from reference.hidden import DEVELOPMENT_KEY
from reference.hidden.trusted import judge_source, run_trusted
from tests.grader.conftest import UserFactory
from tests.worker.added_sources import (
    CORRECT_SOURCE,
    EXERCISES,
    MIN_NEVER_PRUNES,
    RAISES,
    SHIPPED,
    SHIPPED_SOURCE,
    SLUG,
)
from worker import added_check
from worker.added_check import TryAgain, check_added, check_source
from worker.sandbox import SandboxUnavailable
from worker.trees import prepared

MODEL = load_catalog(EXERCISES).get(SLUG)


def checked(source: str) -> added_check.Checked:
    return check_source(MODEL, source, "added.py", key=DEVELOPMENT_KEY, exercises_dir=EXERCISES)


def test_a_copy_of_a_shipped_mistake_is_caught_where_the_shipped_one_is_and_searches_alike() -> (
    None
):
    result = checked(SHIPPED_SOURCE).result
    assert result is not None

    ready = prepared(MODEL, DEVELOPMENT_KEY, EXERCISES)
    trees = [case.tree for case in ready.public] + [item.tree for item in ready.pool.catchers]
    rows = result["trees"]
    assert [row["key"] for row in rows] == [tree_key(tree) for tree in trees]
    assert [row["hidden"] for row in rows] == [False] + [True] * len(ready.pool.catchers)
    assert [row["catcher"] for row in rows[1:]] == [item.index for item in ready.pool.catchers]
    # Every tree the trusted side knows to catch the shipped file catches the copy.
    known = {tree_key(item.tree) for item in ready.pool.catchers if SHIPPED in item.catches} | {
        tree_key(tree) for tree in trees if judge_source(SHIPPED_SOURCE, MODEL, tree)
    }
    caught = {row["key"] for row in rows if row["caught"]}
    assert known and known <= caught
    assert rows[0]["caught"] and rows[0]["verdict"] == "failed"  # first-divergence: at C2
    # Its signature on each tree is the shipped file's, run in process.
    for tree, row in zip(trees, rows, strict=True):
        trusted = trusted_signature(run_trusted(SHIPPED_SOURCE, MODEL, tree))
        assert signature_from_json(row["signature"]) == trusted, row["name"]
    assert (result["public"], result["hidden"]) == (1, len(ready.pool.catchers))
    assert result["public_caught"] + result["hidden_caught"] == len(caught)
    assert result["completed"] == len(trees)


def test_a_correct_search_is_caught_by_no_tree() -> None:
    found = checked(CORRECT_SOURCE)

    assert found.problem is None and found.result is not None
    assert not any(row["caught"] for row in found.result["trees"])
    assert found.result["public_caught"] == found.result["hidden_caught"] == 0
    assert {row["verdict"] for row in found.result["trees"]} == {"passed"}


def test_one_that_raises_everywhere_fails_saying_where_and_why() -> None:
    found = checked(RAISES)

    assert found.result is None
    assert found.problem == (
        "it completed no tree: runtime error on fig5.2: "
        "ZeroDivisionError: division by zero (line 2)"
    )


def test_one_that_does_not_compile_fails_naming_the_line() -> None:
    found = checked("def max_value(game, state, alpha, beta):\n    return (\n")

    assert found.result is None and found.problem is not None
    assert found.problem.startswith("it does not compile:") and "(line 2)" in found.problem


# Stored: the row's check.


class Sent:
    """Records the checks a service asks to send after the commit, and sends none."""

    def __init__(self) -> None:
        self.ids: list[int] = []

    def dispatch(self, session: Session, _kind: str, added_ids: Iterable[int]) -> None:
        from grader.services.unit_of_work import after_commit

        ids = list(added_ids)
        after_commit(session, lambda: self.ids.extend(ids))


def added(
    database: Database,
    course: Course,
    author: User,
    source: str,
    stem: str = "min_never_prunes",
    slug: str = SLUG,
) -> int:
    """An implementation added to ``slug``'s library of ``course``, its check not run."""
    sent = Sent()
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
        ).one()
        # Its header names the misconception; without one, a stand-in.
        draft = library.filled_from_header(library.Draft(stem=stem, source=source), source)
        draft = replace(
            draft,
            name=draft.name or "a mistake",
            explanation=draft.explanation or "why",
            hint=draft.hint or "where",
        )
        author_row = session.get(User, author.id)
        assert author_row is not None
        row = library.add(session, exercise, author_row, draft, limit=256 * 1024, sender=sent)
        assert isinstance(row, AddedImplementation), row
        added_id = row.id
    assert sent.ids == [added_id]
    return added_id


def row_of(database: Database, added_id: int) -> AddedImplementation:
    with database.session() as session:
        row = session.get(AddedImplementation, added_id)
        assert row is not None
        session.refresh(row, ["result"])
        session.expunge(row)
    return row


def test_the_check_stores_its_result_once_against_the_current_version(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    added_id = added(database, course, make_user(Role.INSTRUCTOR, course), MIN_NEVER_PRUNES)

    assert check_added(database, settings, added_id).startswith("ready: caught by ")
    assert check_added(database, settings, added_id) == "ready already"

    row = row_of(database, added_id)
    with database.session() as session:
        exercise = session.get(Exercise, row.exercise_id)
        assert exercise is not None
        assert row.version_id == exercise.current_version_id
    assert row.state == AddedState.READY and row.problem is None and row.checked_at
    assert row.result is not None and row.result["public_caught"] == 1
    assert row.name == "MIN nodes never prune"  # from its header


def test_a_failed_check_is_stored_with_its_problem(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    added_id = added(database, course, make_user(Role.INSTRUCTOR, course), RAISES, "raises")

    assert check_added(database, settings, added_id).startswith("failed: it completed no tree")

    row = row_of(database, added_id)
    assert row.state == AddedState.FAILED and row.result is None
    assert row.problem and "ZeroDivisionError" in row.problem


def test_a_sandbox_that_cannot_run_it_is_tried_again_then_the_check_fails(
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def unavailable(*args: object, **kwargs: object) -> None:
        raise SandboxUnavailable("no seccomp here")

    monkeypatch.setattr(added_check, "run_sandboxed_trees", unavailable)
    added_id = added(database, course, make_user(Role.INSTRUCTOR, course), MIN_NEVER_PRUNES)

    with pytest.raises(TryAgain):
        check_added(database, settings, added_id, last_try=False)
    assert row_of(database, added_id).state == AddedState.CHECKING
    check_added(database, settings, added_id, last_try=True)

    row = row_of(database, added_id)
    assert row.state == AddedState.FAILED
    assert row.problem == (
        "the sandbox is unavailable on this worker: no seccomp here: check it again later"
    )
