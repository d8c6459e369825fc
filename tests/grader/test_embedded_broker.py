"""The embedded broker (kombu's SQL transport on SQLite) shared by several processes, as
gunicorn's workers share it: their first sends at the same moment all reach it."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

from grader.config import Settings
from grader.models.submissions import Lane
from grader.services.tasks import GRADE_TASK, GRADING_QUEUES, QUEUES, make_producer

PROCESSES = 8


def _first_send(instance: str, barrier: multiprocessing.synchronize.Barrier) -> None:
    settings = Settings(
        env="development", instance_dir=Path(instance), database_url="", redis_url=""
    )
    barrier.wait(timeout=30)
    app = make_producer(settings)
    app.send_task(GRADE_TASK, args=[1], queue=GRADING_QUEUES[Lane.SLOW])


def _messages(broker: Path) -> int:
    with sqlite3.connect(broker) as connection:
        (count,) = connection.execute("SELECT count(*) FROM kombu_message").fetchone()
    return int(count)


def test_processes_sending_their_first_task_at_once_all_reach_a_fresh_broker(
    tmp_path: Path,
) -> None:
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(PROCESSES)
    senders = [
        context.Process(target=_first_send, args=(str(tmp_path), barrier)) for _ in range(PROCESSES)
    ]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(timeout=60)
    assert [sender.exitcode for sender in senders] == [0] * PROCESSES
    broker = tmp_path / "broker.db"
    assert _messages(broker) == PROCESSES
    with sqlite3.connect(broker) as connection:
        names = sorted(name for (name,) in connection.execute("SELECT name FROM kombu_queue"))
    assert names == sorted(QUEUES)
