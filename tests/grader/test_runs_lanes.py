"""Grading lanes and the queue: a student's second waiting run and a submission that needs
more than the fast lane's budget are graded in the slow lane; a run put back in the queue
keeps its first ``queued_at``; each kind of task goes to a queue of its own."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.models import Course, Exercise, GradingRun, RunState, User, utcnow
from grader.models.base import aware
from grader.services.queue import Queue
from grader.services.runs import mark_sent, retry_run, start_run, stuck_runs
from grader.services.submissions import submit
from grader.services.tasks import DELIVER_TASK, GRADE_TASK, REAP_TASK, SWEEP_TASK
from tests.grader.conftest import SentAfterCommit, UserFactory, stored_report
from worker.celery_app import app as celery_app
from worker.execute import FAST_LANE_IDLE_SECONDS, SLOW_LANE_IDLE_SECONDS, execute_run

LIBRARY = Path(__file__).resolve().parents[2] / "exercises" / "implementations" / "alphabeta"
CORRECT = (LIBRARY / "correct_fail_hard.py").read_text()
SPINS = """def max_value(game, state, alpha, beta):
    while True:
        pass


def min_value(game, state, alpha, beta):
    return max_value(game, state, alpha, beta)
"""


def _submit(database: Database, settings: Settings, course: Course, user: User, source: str) -> int:
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(
                Exercise.course_id == course.id, Exercise.slug == "aima-fig5.2-alphabeta"
            )
        ).one()
        submission = submit(session, settings, user, exercise, "search.py", source)
        run_id = submission.runs[0].id
    return run_id


def _run(database: Database, run_id: int) -> GradingRun:
    with database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None
        session.expunge(run)
        return run


def test_a_students_second_waiting_run_goes_to_the_slow_lane(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    student, other = make_user(course=course), make_user(course=course)
    first = _submit(database, settings, course, student, CORRECT)
    second = _submit(database, settings, course, student, CORRECT)
    others = _submit(database, settings, course, other, CORRECT)
    assert [_run(database, run).lane for run in (first, second, others)] == [
        "fast",
        "slow",
        "fast",
    ]
    # Once the first is graded, the student's next run is in the fast lane again.
    assert execute_run(database, settings, first, worker="w", task_id="t") == "graded"
    assert execute_run(database, settings, second, worker="w", task_id="t") == "graded"
    third = _submit(database, settings, course, student, CORRECT)
    assert _run(database, third).lane == "fast"


def test_a_spinning_submission_moves_to_the_slow_lane_and_a_correct_one_stays_fast(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    correct = _submit(database, settings, course, make_user(course=course), CORRECT)
    spinning = _submit(database, settings, course, make_user(course=course), SPINS)
    assert execute_run(database, settings, correct, worker="w", task_id="t") == "graded"
    # Eager tasks: the move to the slow lane grades it there at once, with full limits.
    assert execute_run(database, settings, spinning, worker="w", task_id="t") == "slow lane"

    fast = _run(database, correct)
    assert (fast.lane, fast.state, fast.verdict, fast.claims) == ("fast", "graded", "passed", 1)
    slow = _run(database, spinning)
    assert (slow.lane, slow.state, slow.verdict) == ("slow", "graded", "time_limit")
    assert slow.claims == 1  # the fast lane's try is not an attempt
    assert slow.requeued_at is not None and slow.queued_at < slow.requeued_at
    # Graded with the exercise's own limits, not the fast lane's second.
    report = stored_report(database, spinning)
    assert report is not None
    assert report["cases"][0]["verdict"] == "time_limit"
    assert "1 s" not in (slow.message or "")


SLEEPS = """import time


def max_value(game, state, alpha, beta):
    time.sleep(30)
    return 0


def min_value(game, state, alpha, beta):
    return max_value(game, state, alpha, beta)
"""


@pytest.mark.slow  # a few seconds of sleeping searches
def test_a_sleeping_submission_holds_each_lane_for_its_idle_limit_only(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    sleeping = _submit(database, settings, course, make_user(course=course), SLEEPS)
    began = time.monotonic()
    # Eager tasks: moved to the slow lane after the fast lane's idle limit, graded there.
    assert execute_run(database, settings, sleeping, worker="w", task_id="t") == "slow lane"
    took = time.monotonic() - began
    slow = _run(database, sleeping)
    assert (slow.lane, slow.state, slow.verdict) == ("slow", "graded", "time_limit")
    assert f"more than {SLOW_LANE_IDLE_SECONDS:g} s of real time neither computing" in (
        slow.message or ""
    )
    # One tree stopped in each lane (the trees after a limit are not run): far less than
    # the exercise's 10 s wall limit, let alone the 30 s sleep.
    assert took < FAST_LANE_IDLE_SECONDS + SLOW_LANE_IDLE_SECONDS + 5


def test_a_requeued_run_keeps_its_first_queued_at(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    run_id = _submit(database, settings, course, make_user(course=course), CORRECT)
    first = _run(database, run_id).queued_at
    sent = SentAfterCommit()
    with database.session() as session:
        claim = start_run(session, settings, sent, run_id, "w", "t").claim
        assert claim is not None
    with database.session() as session:
        retried = retry_run(session, settings, sent, claim, "the sandbox failed")
    assert retried is not None and retried.again
    assert sent.runs == [run_id]
    assert _run(database, run_id).queued_at == first
    # The reaper counts from the last time it was queued, and keeps the first time too.
    with database.session() as session:
        mark_sent(session, run_id, "task")
    later = utcnow() + timedelta(seconds=settings.run_timeout_seconds + 5)
    with database.session() as session:
        assert stuck_runs(session, settings, later) == [run_id]
    run = _run(database, run_id)
    assert run.queued_at == first
    assert run.requeued_at is not None
    assert abs(aware(run.requeued_at) - later) < timedelta(seconds=1)
    with database.session() as session:
        mark_sent(session, run_id, "task-2")  # as the reaper's send does
    with database.session() as session:
        assert stuck_runs(session, settings, later + timedelta(seconds=60)) == []


class _Broker:
    """A stand-in for Celery that records what is sent where."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, list[Any], str]] = []

    def send_task(self, name: str, args: list[Any], **options: Any) -> None:
        self.sent.append((name, args, options["queue"]))


def test_each_run_is_sent_to_its_lanes_queue(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    student = make_user(course=course)
    fast = _submit(database, settings, course, student, CORRECT)
    slow = _submit(database, settings, course, student, CORRECT)
    broker = _Broker()
    queue = Queue(replace(settings, eager_tasks=False), database, broker)
    assert queue.send(GRADE_TASK, [fast, slow]) == 2
    assert queue.send(DELIVER_TASK, [7]) == 1
    assert broker.sent == [
        (GRADE_TASK, [fast], "grading"),
        (GRADE_TASK, [slow], "grading-slow"),
        (DELIVER_TASK, [7], "callbacks"),
    ]
    with database.session() as session:
        states = session.scalars(select(GradingRun.state).where(GradingRun.id.in_([fast, slow])))
        assert set(states) == {RunState.QUEUED}


def test_the_reaper_the_sweep_and_callbacks_have_queues_of_their_own() -> None:
    def queue_of(task: str) -> str:
        return str(celery_app.amqp.router.route({}, task)["queue"].name)

    assert queue_of(GRADE_TASK) == "grading"
    assert queue_of(DELIVER_TASK) == "callbacks"
    assert queue_of(REAP_TASK) == queue_of(SWEEP_TASK) == "maintenance"
    schedule = celery_app.conf.beat_schedule
    assert {queue_of(entry["task"]) for entry in schedule.values()} == {"maintenance"}
