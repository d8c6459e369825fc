"""One unit of work per request: the request's session is committed once when the response
is not an error, and the tasks the request asked for are sent after that commit, once; an
error response rolls both back."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from flask import Flask
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.models import Course
from grader.services.queue import Queue
from grader.services.tasks import GRADE_TASK
from grader.services.unit_of_work import after_commit, pending
from grader.web import create_app
from grader.web.context import db_session, queue


class RecordingQueue(Queue):
    """A queue that records what it sends, and whether the course was committed then."""

    def __init__(self, settings: Settings, database: Database) -> None:
        super().__init__(settings, database)
        self.sent: list[tuple[list[int], int]] = []

    def send(self, kind: str, run_ids: Iterable[int]) -> int:
        with self.database.session() as session:
            courses = session.scalar(select(func.count()).select_from(Course)) or 0
        ids = list(run_ids)
        self.sent.append((ids, courses))
        return len(ids)


@pytest.fixture
def recording(settings: Settings, database: Database) -> RecordingQueue:
    return RecordingQueue(settings, database)


@pytest.fixture
def touching_app(settings: Settings, database: Database, recording: RecordingQueue) -> Flask:
    """The app with a page that adds a course, asks for run 42's task and answers with the
    status in its URL."""
    app = create_app(settings, database, queue=recording)

    def touch(status: int) -> tuple[str, int]:
        session = db_session()
        session.add(Course(title="Touched", join_code=f"T{status}"))
        session.flush()
        queue().dispatch(session, GRADE_TASK, [42])
        return "touched", status

    app.add_url_rule("/touch/<int:status>", view_func=touch)
    return app


def _courses(database: Database) -> int:
    with database.session() as session:
        return session.scalar(select(func.count()).select_from(Course)) or 0


@pytest.mark.parametrize("status", [200, 202, 302])
def test_a_request_that_succeeds_commits_then_sends_its_tasks_once(
    touching_app: Flask, database: Database, recording: RecordingQueue, status: int
) -> None:
    assert touching_app.test_client().get(f"/touch/{status}").status_code == status
    assert _courses(database) == 1
    assert recording.sent == [([42], 1)]  # sent once, with the course already committed


@pytest.mark.parametrize("status", [400, 404, 422, 500])
def test_a_request_that_fails_rolls_back_and_sends_nothing(
    touching_app: Flask, database: Database, recording: RecordingQueue, status: int
) -> None:
    assert touching_app.test_client().get(f"/touch/{status}").status_code == status
    assert _courses(database) == 0
    assert recording.sent == []


def test_a_request_that_raises_rolls_back_and_sends_nothing(
    settings: Settings, database: Database, recording: RecordingQueue
) -> None:
    app = create_app(settings, database, queue=recording)

    def broken() -> str:
        db_session().add(Course(title="Broken", join_code="BROKEN"))
        queue().dispatch(db_session(), GRADE_TASK, [7])
        raise RuntimeError("the view failed")

    app.add_url_rule("/broken", view_func=broken)
    assert app.test_client().get("/broken").status_code == 500
    assert _courses(database) == 0
    assert recording.sent == []


def test_actions_wait_for_the_outer_commit_and_are_dropped_on_rollback() -> None:
    session = Session(create_engine("sqlite://"))
    done: list[str] = []
    session.execute(text("select 1"))
    after_commit(session, lambda: done.append("rolled back"))
    session.rollback()
    assert (done, pending(session)) == ([], 0)
    session.execute(text("select 1"))
    after_commit(session, lambda: done.append("committed"))
    with session.begin_nested():
        pass  # a savepoint released is not the commit
    assert (done, pending(session)) == ([], 1)
    session.commit()
    session.commit()
    assert done == ["committed"]


def test_a_kind_of_job_never_registered_fails_when_asked_for_not_after_the_commit(
    settings: Settings, database: Database
) -> None:
    session = database.sessions()
    with pytest.raises(ValueError, match="no job kind"):
        Queue(settings, database).dispatch(session, "worker.tasks.no_such_task", [1])
    assert pending(session) == 0
    session.close()
