"""One attempt at a time: two callers trying the same delivery at once (the sweep and a
planned retry, two workers) against a slow receiver make one HTTP request and log one
attempt, on SQLite and on PostgreSQL; a claim lapses; the next try is planned from when
the attempt ended; slow receivers are cut off by the connect and read timeouts."""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.exc import OperationalError

from grader.config import Settings
from grader.db import Database
from grader.lms import callbacks
from grader.models import (
    Course,
    Delivery,
    DeliveryAttempt,
    DeliveryKind,
    DeliveryState,
    Integration,
    utcnow,
)
from grader.services import deliveries
from grader.services.deliveries import attempt, due
from tests import servers
from tests.grader.conftest import Backend
from tests.grader.lms.test_callbacks import aware, new_secret


class SlowReceiver:
    """A callback endpoint on loopback that waits ``delay`` seconds, then answers."""

    def __init__(self, delay: float, status: int = 500) -> None:
        self.delay, self.status, self.hits = delay, status, 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver.hits += 1
                time.sleep(receiver.delay)
                try:
                    self.send_response(receiver.status)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                except OSError:  # the sender gave up waiting
                    pass

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        servers.start(self.server)

    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/callback"

    def stop(self) -> None:
        servers.stop(self.server)


@pytest.fixture(autouse=True)
def loopback_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(callbacks, "ALLOW_PRIVATE", True)


@pytest.fixture
def slow() -> Iterator[SlowReceiver]:
    found = SlowReceiver(delay=1.5)
    yield found
    found.stop()


def pending_delivery(database: Database, course: Course, url: str) -> int:
    """A callback due now, through an integration allowed to call loopback."""
    with database.session() as session:
        integration = Integration(
            course_id=course.id,
            name="Moodle",
            allowed_hosts=["127.0.0.1"],
            secret=new_secret(),
            token_hash=hashlib.sha256(secrets.token_bytes(16)).hexdigest(),
        )
        session.add(integration)
        session.flush()
        delivery = Delivery(
            kind=DeliveryKind.CALLBACK,
            event="submission.graded",
            message_id="msg_" + secrets.token_hex(8),
            integration_id=integration.id,
            url=url,
            payload={"type": "submission.graded", "data": {}},
        )
        session.add(delivery)
        session.flush()
        return delivery.id


def logged(database: Database, delivery_id: int) -> tuple[Delivery, int]:
    """The delivery and how many attempts its log holds."""
    with database.session() as session:
        delivery = session.get(Delivery, delivery_id)
        assert delivery is not None
        session.expunge(delivery)
        rows = session.scalar(
            select(func.count())
            .select_from(DeliveryAttempt)
            .where(DeliveryAttempt.delivery_id == delivery_id)
        )
        return delivery, int(rows or 0)


def test_two_attempts_at_once_send_once(
    backend: Backend, slow: SlowReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Retries sooner than the receiver answers: the retry is due while the attempt waits.
    monkeypatch.setattr(deliveries, "FIRST_DELAY", 0.2)
    delivery_id = pending_delivery(backend.database, backend.course, slow.url())
    start = threading.Barrier(2)
    waits: list[float | None] = []

    def try_it() -> None:
        with backend.database.sessions() as session:
            start.wait()
            waits.append(attempt(session, delivery_id))

    threads = [threading.Thread(target=try_it) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert slow.hits == 1
    delivery, rows = logged(backend.database, delivery_id)
    assert delivery.attempts == rows == 1
    assert sorted(waits, key=lambda wait: wait is not None) == [None, pytest.approx(0.15, abs=0.1)]
    assert delivery.state == DeliveryState.PENDING and delivery.claimed_by is None


def test_the_next_try_is_planned_from_when_the_attempt_ended(
    backend: Backend, slow: SlowReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(deliveries, "backoff", lambda *_args: 1.0)
    delivery_id = pending_delivery(backend.database, backend.course, slow.url())
    before = utcnow()
    with backend.database.sessions() as session:
        wait = attempt(session, delivery_id)
    assert wait is not None
    delivery, rows = logged(backend.database, delivery_id)
    assert rows == 1 and delivery.next_attempt_at is not None
    planned = aware(delivery.next_attempt_at)
    # The receiver's 1.5 s and then the backoff's 1 s after the attempt began.
    assert planned >= before + timedelta(seconds=2.5)
    assert wait == pytest.approx(1.0, abs=0.01)
    with backend.database.sessions() as session:
        assert delivery_id not in due(session)
        assert attempt(session, delivery_id) is None  # the sweep meanwhile: not due
    assert slow.hits == 1


def test_a_claim_holds_the_delivery_until_it_lapses(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = SlowReceiver(delay=0.0, status=200)
    try:
        delivery_id = pending_delivery(backend.database, backend.course, fast.url())
        with backend.database.sessions() as session:
            assert deliveries.claim(session, delivery_id, utcnow()) is not None
        # The worker that claimed it was killed: nobody sends until the lease lapses.
        with backend.database.sessions() as session:
            assert delivery_id not in due(session)
            assert attempt(session, delivery_id) is None
        assert fast.hits == 0
        later = utcnow() + deliveries.LEASE + timedelta(seconds=1)
        with backend.database.sessions() as session:
            assert delivery_id in due(session, later)
            assert attempt(session, delivery_id, now=later) is None  # delivered
    finally:
        fast.stop()
    delivery, rows = logged(backend.database, delivery_id)
    assert (delivery.state, delivery.attempts, rows, fast.hits) == ("delivered", 1, 1, 1)


def test_a_receiver_slower_than_the_timeouts_is_cut_off(
    database: Database, course: Course, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (
        callbacks.TIMEOUTS
        == (
            Settings().callback_connect_seconds,
            Settings().callback_read_seconds,
        )
        == (3.0, 5.0)
    )
    monkeypatch.setattr(callbacks, "TIMEOUTS", (0.5, 1.0))
    sleepy = SlowReceiver(delay=4.0, status=200)
    try:
        delivery_id = pending_delivery(database, course, sleepy.url())
        began = time.monotonic()
        with database.sessions() as session:
            wait = attempt(session, delivery_id)
        took = time.monotonic() - began
    finally:
        sleepy.stop()
    assert wait is not None and took < 3.5
    delivery, rows = logged(database, delivery_id)
    assert delivery.state == DeliveryState.PENDING and rows == delivery.attempts == 1
    assert "no answer" in (delivery.last_error or "")


def test_an_outcome_the_database_could_not_take_at_once_is_recorded_not_sent_again(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database goes away while the receiver answers (a PostgreSQL restart during a
    backlog): the attempt's outcome is recorded once it is back, within the claim's lease,
    so no later attempt sends the callback again."""
    receiver = SlowReceiver(delay=0.0, status=200)
    monkeypatch.setattr(deliveries, "RECORD_WAITS", (0.01,) * 5)
    failures: list[str] = []

    def away_twice(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        words = statement.upper().replace(" ", "")
        recording = words.startswith("UPDATEDELIVERIES") and "ATTEMPTS=" in words
        if recording and len(failures) < 2:
            failures.append(statement)
            raise OperationalError(statement, {}, Exception("the database system is starting up"))

    database = backend.database
    try:
        delivery_id = pending_delivery(database, backend.course, receiver.url())
        event.listen(database.engine, "before_cursor_execute", away_twice)
        try:
            with database.sessions() as session:
                assert attempt(session, delivery_id) is None  # delivered: no next try
        finally:
            event.remove(database.engine, "before_cursor_execute", away_twice)
        assert len(failures) == 2
        delivery, attempts = logged(database, delivery_id)
        assert (delivery.state, delivery.attempts, attempts) == (DeliveryState.DELIVERED, 1, 1)
        assert delivery.claimed_by is None
        later = utcnow() + deliveries.LEASE + timedelta(seconds=1)
        with database.sessions() as session:
            assert delivery_id not in due(session, later)
            assert attempt(session, delivery_id, later) is None
        assert receiver.hits == 1
    finally:
        receiver.stop()
