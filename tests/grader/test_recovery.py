"""Runs back in the queue within seconds, not at the reaper's timeout: a run whose worker
stopped reporting, a run whose message the broker lost; and the leftover messages of runs
sent again never grade them a second time."""

from __future__ import annotations

import os
import secrets
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
import redis

from grader.config import Settings
from grader.db import Database
from grader.models import Course, GradingRun, RunState, utcnow
from grader.services import broker_epoch, jobs, workers
from grader.services.queue import Queue
from grader.services.runs import mark_sent, start_run, stuck_runs
from tests.grader.conftest import SentAfterCommit, UserFactory
from tests.grader.test_runs import _submit as submit_from_library
from tests.redis_databases import broker_of_this_process


def _queued_run(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> int:
    """A correct alpha-beta's run, queued (by a new student)."""
    return submit_from_library(database, settings, course, make_user, "correct_fail_hard.py")[1]


def _run(database: Database, run_id: int) -> GradingRun:
    with database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None
        session.expunge(run)
        return run


# Leftover messages.


def test_a_queued_run_takes_only_the_task_it_was_last_sent_with(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    run_id = _queued_run(database, settings, course, make_user)
    sent = SentAfterCommit()
    with database.session() as session:
        mark_sent(session, run_id, "second")
    with database.session() as session:
        refused = start_run(session, settings, sent, run_id, "w", "first")
    assert (refused.claim, refused.reason) == (None, "sent again since this task")
    with database.session() as session:
        taken = start_run(session, settings, sent, run_id, "w", "second")
    assert taken.claim is not None and taken.claim.number == 1


def test_a_running_run_is_claimed_again_by_its_own_task_only(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    run_id = _queued_run(database, settings, course, make_user)
    sent = SentAfterCommit()
    with database.session() as session:
        assert start_run(session, settings, sent, run_id, "w1", "task").claim is not None
    with database.session() as session:
        other = start_run(session, settings, sent, run_id, "w2", "leftover")
    assert (other.claim, other.reason) == (None, "being graded by another task")
    # Its own task again: the message was handed out again after its worker was lost.
    with database.session() as session:
        again = start_run(session, settings, sent, run_id, "w2", "task")
    assert again.claim is not None and again.claim.number == 2
    assert _run(database, run_id).claims == 2


# A worker that stopped reporting.


def _running_on(
    database: Database, settings: Settings, course: Course, make_user: UserFactory, worker: str
) -> int:
    run_id = _queued_run(database, settings, course, make_user)
    with database.session() as session:
        assert start_run(session, settings, SentAfterCommit(), run_id, worker, "t").claim
    return run_id


def test_the_runs_of_a_worker_that_stopped_reporting_are_taken_back(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    now = utcnow()
    gone_after = timedelta(seconds=settings.worker_gone_seconds)
    second = timedelta(seconds=1)
    with database.session() as session:
        workers.record(session, "celery@a/1-aa", ["grading"], now - gone_after - second)
        workers.record(session, "celery@b/2-bb", ["grading"], now - gone_after + 5 * second)
    silent = _running_on(database, settings, course, make_user, "celery@a/1-aa")
    alive = _running_on(database, settings, course, make_user, "celery@b/2-bb")
    never = _running_on(database, settings, course, make_user, "eager")
    with database.session() as session:
        assert stuck_runs(session, settings, now) == [silent]
    back = _run(database, silent)
    assert (back.state, back.task_id) == (RunState.QUEUED, None)
    assert _run(database, alive).state == _run(database, never).state == RunState.RUNNING
    # The same host's worker started again reports under another name: no help to the run.
    with database.session() as session:
        workers.record(session, "celery@a/7-cc", ["grading"], now)
        workers.record(session, "celery@b/2-bb", ["grading"], now)
    with database.session() as session:
        assert stuck_runs(session, settings, now + 10 * second) == []
    # The last resort still holds for a run whose worker never reported.
    late = now + timedelta(seconds=settings.run_timeout_seconds + 1)
    with database.session() as session:
        assert never in stuck_runs(session, settings, late)


def test_heartbeats_of_workers_long_gone_are_forgotten(database: Database) -> None:
    now = utcnow()
    with database.session() as session:
        workers.record(session, "celery@old/1-aa", ["grading"], now - timedelta(days=3))
        workers.record(session, "celery@new/2-bb", ["grading"], now)
    with database.session() as session:
        names = session.scalars(workers.gone(now + timedelta(days=10))).all()
    assert names == ["celery@new/2-bb"]


# The broker lost its messages.


@pytest.fixture
def broker(settings: Settings, tmp_path: Path) -> Settings:
    """The settings with a Redis database of this test process's own as the broker (the
    tests empty it)."""
    base = os.environ.get("GRADER_TEST_REDIS_URL")
    if not base:
        pytest.skip("no test Redis (GRADER_TEST_REDIS_URL)")
    url = broker_of_this_process(base)
    redis.Redis.from_url(url).flushdb()
    return replace(settings, redis_url=url, eager_tasks=False)


def test_runs_whose_messages_the_broker_lost_are_sent_again_once(
    database: Database, broker: Settings, course: Course, make_user: UserFactory
) -> None:
    run_ids = [_queued_run(database, broker, course, make_user) for _ in range(2)]
    queue = Queue(broker, database)
    assert queue.send("worker.tasks.grade_run", run_ids) == 2
    first = {run_id: _run(database, run_id).task_id for run_id in run_ids}
    assert None not in first.values()
    client = redis.Redis.from_url(broker.redis_url)
    assert client.llen("grading") == 2

    # The reaper's first look at the broker writes its epoch and sends nothing again.
    jobs.reap(database, broker, queue)
    assert {run_id: _run(database, run_id).task_id for run_id in run_ids} == first
    client.flushdb()  # Redis restarted without persistence: its messages are gone
    assert jobs.reap(database, broker, queue) >= 2  # the runs, and any analysis waiting
    again = {run_id: _run(database, run_id).task_id for run_id in run_ids}
    assert all(again[run_id] not in (None, first[run_id]) for run_id in run_ids)
    assert client.llen("grading") == 2
    assert client.get(broker_epoch.EPOCH_KEY) is not None

    # Nothing lost since: nothing sent again.
    jobs.reap(database, broker, queue)
    assert {run_id: _run(database, run_id).task_id for run_id in run_ids} == again
    assert client.llen("grading") == 2
    # A message sent before the loss that turns up after all is a leftover.
    with database.session() as session:
        leftover = start_run(
            session, broker, SentAfterCommit(), run_ids[0], "w", first[run_ids[0]] or ""
        )
    assert leftover.claim is None
    client.flushdb()
    client.close()


def test_the_embedded_broker_never_counts_as_having_lost_its_messages(
    database: Database, settings: Settings
) -> None:
    assert not settings.redis_url
    with database.session() as session:
        assert broker_epoch.messages_lost(session, settings) is False


def test_an_unreachable_broker_is_not_taken_for_one_that_lost_its_messages(
    database: Database, settings: Settings
) -> None:
    away = replace(settings, redis_url=f"redis://127.0.0.1:1/{secrets.randbelow(16)}")
    with database.session() as session:
        assert broker_epoch.messages_lost(session, away) is False


def test_a_broker_given_another_epoch_by_another_service_counts_as_having_lost_ours(
    database: Database, broker: Settings
) -> None:
    """The broker emptied and used by another deployment since: what it holds is not ours."""
    with database.session() as session:
        assert broker_epoch.messages_lost(session, broker) is False
        assert broker_epoch.messages_lost(session, broker) is False
    client = redis.Redis.from_url(broker.redis_url)
    client.set(broker_epoch.EPOCH_KEY, "someone else's")
    with database.session() as session:
        assert broker_epoch.messages_lost(session, broker) is True
        assert broker_epoch.messages_lost(session, broker) is False
    client.flushdb()
    client.close()
