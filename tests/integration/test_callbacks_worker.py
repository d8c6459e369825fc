"""A result callback end to end: a real Celery worker grades an LMS submission and calls
the LMS back, once, signed, at a receiver on loopback."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sqlalchemy import select

from grader.db import Database
from grader.models import Course, Delivery, DeliveryState, GradingRun, LmsSubmission, User
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK
from tests.grader.conftest import stored_report
from tests.grader.lms.test_callbacks import Receiver, make_integration, new_secret
from tests.integration.conftest import SharedWorkers, exercise_of, wait_until_graded

LIBRARY = Path(__file__).resolve().parents[2] / "exercises" / "implementations" / "alphabeta"

pytestmark = pytest.mark.integration


def _delivered(database: Database, submission_id: int, timeout: float) -> Delivery:
    deadline = time.monotonic() + timeout
    while True:
        with database.session() as session:
            found = session.scalars(
                select(Delivery).where(Delivery.submission_id == submission_id)
            ).all()
            if found and found[0].state != DeliveryState.PENDING:
                session.expunge(found[0])
                return found[0]
        if time.monotonic() > deadline:
            pytest.fail(f"the callback of submission {submission_id} is still pending")
        time.sleep(0.2)


def test_a_graded_lms_submission_is_called_back_exactly_once(
    shared_workers: SharedWorkers, pg_course: Course, tmp_path: Path
) -> None:
    # The session's workers send callbacks to loopback (SERVICE_ENV), where the receiver is.
    settings = shared_workers.settings(tmp_path)
    database = Database(settings.database_url)
    receiver = Receiver(new_secret()).start()
    try:
        integration_id = make_integration(database, pg_course, receiver.secret)
        exercise = exercise_of(database, pg_course, "aima-fig5.2-alphabeta")
        with database.session() as session:
            student = User(email=f"lms{time.monotonic_ns()}@example.edu", name="LMS student")
            session.add(student)
            session.flush()
            source = (LIBRARY / "correct_fail_hard.py").read_text()
            submission = submit(session, settings, student, exercise, "search.py", source)
            session.add(
                LmsSubmission(
                    submission_id=submission.id,
                    integration_id=integration_id,
                    callback_url=receiver.url(),
                )
            )
            session.flush()
            submission_id = submission.id
            run_id = session.scalars(
                select(GradingRun.id).where(GradingRun.submission_id == submission.id)
            ).one()
        assert Queue(settings, database).send(GRADE_TASK, [run_id]) == 1
        wait_until_graded(database, [run_id], timeout=120)

        delivery = _delivered(database, submission_id, timeout=60)
        time.sleep(2)  # a duplicate, if any, would have arrived by now
        assert (delivery.state, delivery.attempts) == (DeliveryState.DELIVERED, 1)
        (got,) = receiver.got
        assert got.verified, got.problem
        assert got.headers["webhook-id"] == delivery.message_id
        with database.session() as session:
            run = session.get(GradingRun, run_id)
            assert run is not None and run.state == "graded"
        report = stored_report(database, run_id)
        assert got.payload["type"] == "submission.graded"
        assert got.payload["data"]["submission_id"] == submission_id
        assert got.payload["data"]["report"] == report
    finally:
        receiver.stop()
        database.engine.dispose()
