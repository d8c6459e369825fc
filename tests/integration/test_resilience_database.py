"""A database that goes away loses nothing: a worker that cannot reach it tries the task
again later (backoff with jitter) instead of acknowledging it as failed, and grades the run
once the database is back, without waiting for the reaper; a webhook cut off half-way is
taken again by the LMS's retry (a real Celery worker, Redis, and PostgreSQL behind a proxy
this test cuts)."""

from __future__ import annotations

import contextlib
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.engine import make_url

from grader.db import Database
from grader.models import Course, GradingRun, LmsSubmission, RunState, User, WebhookReceipt
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK
from grader.web import create_app
from tests.grader.lms import make_lms, problem
from tests.integration.conftest import (
    ROOT,
    Worker,
    exercise_of,
    service_settings,
    wait_until_graded,
)

pytestmark = pytest.mark.integration

CORRECT = (ROOT / "exercises/implementations/alphabeta/correct_fail_hard.py").read_text()


class Proxy:
    """A TCP proxy to the database that can be cut (every connection dropped, new ones
    closed at once, as while a server restarts) and restored."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port: int = self.listener.getsockname()[1]
        self.up = threading.Event()
        self.up.set()
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up.is_set():
                client.close()
                continue
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            with self.lock:
                self.open += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.up.clear()
        with self.lock:
            for end in self.open:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()
            self.open.clear()

    def restore(self) -> None:
        self.up.set()

    def close(self) -> None:
        self.stopped = True
        self.cut()
        self.listener.close()


@pytest.fixture
def proxy(pg_url: str) -> Iterator[Proxy]:
    url = make_url(pg_url)
    found = Proxy(url.host or "127.0.0.1", url.port or 5432)
    yield found
    found.close()


def _queued_run(database: Database, settings: object, course: Course) -> int:
    exercise = exercise_of(database, course, "aima-fig5.2-alphabeta")
    with database.session() as session:
        student = User(email=f"blip{secrets.token_hex(6)}@example.edu", name="Student")
        session.add(student)
        session.flush()
        return submit(session, settings, student, exercise, "search.py", CORRECT).runs[0].id  # type: ignore[arg-type]


def test_a_run_sent_while_the_database_is_away_is_graded_once_it_is_back(
    pg_url: str,
    own_redis: str,
    pg_course: Course,
    tmp_path: Path,
    workers: Callable[..., Worker],
    proxy: Proxy,
) -> None:
    settings = service_settings(tmp_path, pg_url, own_redis)
    assert settings.run_timeout_seconds == 900  # the reaper would wait a quarter of an hour
    through_proxy = make_url(pg_url).set(host="127.0.0.1", port=proxy.port)
    worker_settings = replace(
        settings, database_url=through_proxy.render_as_string(hide_password=False)
    )
    database = Database(pg_url)
    workers(worker_settings, queues="grading")
    time.sleep(3)  # the worker is up and has written its first heartbeat
    proxy.cut()
    run_ids = [_queued_run(database, settings, pg_course) for _ in range(3)]
    assert Queue(settings, database).send(GRADE_TASK, run_ids) == 3
    time.sleep(8)  # the worker takes each message and cannot start its run
    with database.session() as session:
        runs = [session.get(GradingRun, run_id) for run_id in run_ids]
        assert all(run is not None and run.state == RunState.QUEUED for run in runs)
    proxy.restore()
    began = time.monotonic()
    wait_until_graded(database, run_ids, timeout=90)
    back = time.monotonic() - began
    with database.session() as session:
        for run_id in run_ids:
            run = session.get(GradingRun, run_id)
            assert run is not None
            assert (run.state, run.verdict, run.claims) == (RunState.GRADED, "passed", 1)
    # Retries back off to 10 s at most (with jitter): well before the reaper's 900 s.
    assert back < 60, f"graded {back:.0f} s after the database came back"
    database.engine.dispose()


def test_a_webhook_cut_off_between_its_receipt_and_its_submission_is_taken_again(
    pg_url: str, own_redis: str, pg_course: Course, tmp_path: Path, proxy: Proxy
) -> None:
    """The database goes away (every connection dropped, new ones refused for a second, as
    while PostgreSQL restarts) after the webhook's receipt is written and before its
    submission is: the LMS gets a 503, and its retry with the same webhook-id, once the
    database is back, is accepted as the first would have been: one submission, one
    receipt, and the same answer to every later retry (not 409 key-in-flight)."""
    through_proxy = make_url(pg_url).set(host="127.0.0.1", port=proxy.port)
    settings = service_settings(
        tmp_path, through_proxy.render_as_string(hide_password=False), own_redis
    )
    app_database = Database(settings.database_url)
    database = Database(pg_url)
    lms = make_lms(create_app(settings, app_database).test_client(), database, pg_course)
    cut: list[float] = []

    def restart_at_the_submission(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if not cut and statement.lstrip().upper().startswith("INSERT INTO SUBMISSIONS"):
            cut.append(time.monotonic())
            proxy.cut()
            threading.Timer(1.0, proxy.restore).start()

    event.listen(app_database.engine, "before_cursor_execute", restart_at_the_submission)
    try:
        failed = lms.post(message_id="msg_cut")
        assert cut, "the database was not cut"
        problem(failed, 503)
        assert int(failed.headers["Retry-After"]) > 0
        time.sleep(max(0.0, cut[0] + 1.5 - time.monotonic()))  # the LMS retries later
        again = lms.post(message_id="msg_cut")
        assert again.status_code == 202, again.get_data(as_text=True)
        replayed = lms.post(message_id="msg_cut")
        assert replayed.status_code == 202
        assert replayed.get_json()["submission_id"] == again.get_json()["submission_id"]
    finally:
        event.remove(app_database.engine, "before_cursor_execute", restart_at_the_submission)
        app_database.engine.dispose()
    with database.session() as session:
        ours = (
            select(func.count())
            .select_from(LmsSubmission)
            .where(LmsSubmission.integration_id == lms.integration_id)
        )
        receipts = (
            select(func.count())
            .select_from(WebhookReceipt)
            .where(WebhookReceipt.integration_id == lms.integration_id)
        )
        assert (session.scalar(ours), session.scalar(receipts)) == (1, 1)
    database.engine.dispose()
