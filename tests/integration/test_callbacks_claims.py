"""The doubled delivery, end to end: the same callback's task arriving three times at once
(the sweep and a planned retry meet) at a real Celery worker on the callbacks queue, with a
receiver slower than the first backoff, is sent once and logged once."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from grader.db import Database
from grader.models import Course, DeliveryState
from grader.services.queue import Queue
from grader.services.tasks import DELIVER_TASK
from tests.grader.lms.test_delivery_claims import SlowReceiver, logged, pending_delivery
from tests.integration.conftest import Worker, service_settings

pytestmark = pytest.mark.integration

RECEIVER_SECONDS = 12.0
"""Longer than the first backoff (5 to 10 s): a retry planned from the attempt's start
would be due before the attempt ends."""


@pytest.fixture
def slow() -> Iterator[SlowReceiver]:
    found = SlowReceiver(delay=RECEIVER_SECONDS, status=200)
    yield found
    found.stop()


def test_three_tasks_for_one_callback_at_once_send_it_once(
    pg_url: str,
    flushed_redis: str,
    pg_course: Course,
    tmp_path: Path,
    workers: Callable[..., Worker],
    slow: SlowReceiver,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Read by the worker process: the receiver is on loopback, and it answers in 12 s.
    monkeypatch.setenv("GRADER_CALLBACKS_ALLOW_PRIVATE", "1")
    monkeypatch.setenv("GRADER_CALLBACK_READ_SECONDS", "20")
    settings = service_settings(tmp_path, pg_url, flushed_redis)
    database = Database(pg_url)
    try:
        workers(settings, queues="callbacks", concurrency=8, pool="threads")
        delivery_id = pending_delivery(database, pg_course, slow.url())
        assert Queue(settings, database).send(DELIVER_TASK, [delivery_id] * 3) == 3

        deadline = time.monotonic() + 240
        while logged(database, delivery_id)[1] == 0:
            assert time.monotonic() < deadline, "no attempt was made"
            time.sleep(0.5)
        time.sleep(3)  # a second copy, if any, would have reached the receiver by now

        assert slow.hits == 1
        delivery, rows = logged(database, delivery_id)
        assert (delivery.state, delivery.attempts, rows) == (DeliveryState.DELIVERED, 1, 1)
    finally:
        database.engine.dispose()
