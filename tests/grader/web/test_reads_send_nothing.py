"""A page read sends no job: the feedback, exercise, class results and preview pages only read,
even for a version whose analysis was never made (the reaper makes that one)."""

from __future__ import annotations

from collections.abc import Iterable

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import delete, func, select

from grader.config import Settings
from grader.db import Database
from grader.models import Course, Exercise, Role, VersionAnalysis
from grader.services.analyses import stuck_analyses
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK
from tests.grader.conftest import UserFactory
from tests.grader.instructor.helpers import LIBRARY, login

SLUG = "aima-fig5.2-alphabeta"


class CountingQueue(Queue):
    """A queue that counts what it is asked to send, and sends nothing."""

    def __init__(self, settings: Settings, database: Database) -> None:
        super().__init__(settings, database)
        self.sent: list[tuple[str, list[int]]] = []

    def send(self, kind: str, ids: Iterable[int]) -> int:
        ids = list(ids)
        self.sent.append((kind, ids))
        return len(ids)


def test_no_feedback_exercise_or_preview_page_sends_a_job(
    app: Flask,
    client: FlaskClient,
    database: Database,
    settings: Settings,
    course: Course,
    make_user: UserFactory,
) -> None:
    teacher = make_user(Role.INSTRUCTOR, course)
    student = make_user(Role.STUDENT, course)
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        ).one()
        source = (LIBRARY / "wrong_no_pruning.py").read_text()
        submission = submit(session, settings, student, exercise, "mine.py", source)
        run_id, submission_id = submission.runs[0].id, submission.id
        exercise_id, version_id = exercise.id, exercise.current_version_id
    assert Queue(settings, database).send(GRADE_TASK, [run_id]) == 1  # graded here
    with database.session() as session:
        # As for a version saved before analyses existed.
        session.execute(delete(VersionAnalysis))
    counting = CountingQueue(settings, database)
    app.extensions["grader.queue"] = counting

    teaching = (
        f"/teach/submissions/{submission_id}",
        f"/teach/exercises/{exercise_id}/versions/{version_id}",
        f"/teach/exercises/{exercise_id}/versions/{version_id}/analysis",
        f"/teach/exercises/{exercise_id}/class-results",
        f"/teach/exercises/{exercise_id}/students",
    )
    learning = (
        f"/exercises/{exercise_id}",
        f"/submissions/{submission_id}",
        f"/submissions/{submission_id}/status",
    )
    login(client, teacher)
    answers = {path: client.get(path) for path in teaching}
    login(client, student)
    answers |= {path: client.get(path) for path in learning}

    assert {path: answer.status_code for path, answer in answers.items()} == dict.fromkeys(
        answers, 200
    )
    assert answers[teaching[2]].get_json()["state"] == "queued"
    assert counting.sent == []
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(VersionAnalysis)) == 0
        # The reaper makes the missing analysis (and sends it after its commit).
        assert version_id in stuck_analyses(session, settings)
