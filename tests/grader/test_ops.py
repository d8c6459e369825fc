"""The operators' endpoints (health, readiness, metrics), request ids and JSON logs."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import re
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from grader import logs
from grader.config import Settings
from grader.db import Database
from grader.metrics import render_metrics
from grader.migrate import upgrade
from grader.models import (
    Course,
    Exercise,
    ExerciseVersion,
    GradingRun,
    RunState,
    Submission,
    User,
    utcnow,
)
from grader.services.workers import record
from grader.web import create_app, ops
from tests.processes import end_with_test

DEAD_DATABASE = "postgresql+psycopg://127.0.0.1:1/x"
DEAD_REDIS = "redis://127.0.0.1:1/0"


def make_app(tmp_path: Path, **overrides: object) -> Flask:
    """The app on a migrated SQLite database in ``tmp_path`` (unless a URL is given)."""
    options: dict[str, object] = {"env": "development", "instance_dir": tmp_path / "instance"}
    options.update(overrides)
    settings = Settings(**options)  # type: ignore[arg-type]
    if not settings.database_url:
        settings.instance_dir.mkdir(parents=True, exist_ok=True)
        upgrade(settings.sqlalchemy_url)
    app = create_app(settings)
    ops.register(app)
    return app


def worker_alive(app: Flask) -> None:
    """A grading worker's heartbeat, as a live worker records it."""
    with app.extensions["grader.db"].session() as session:
        record(session, "grading@test", ["grading", "grading-slow"])


@pytest.fixture
def ops_app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path)
    worker_alive(app)
    yield app
    app.extensions["grader.db"].engine.dispose()


@pytest.fixture
def ops_client(ops_app: Flask) -> FlaskClient:
    return ops_app.test_client()


@pytest.fixture
def log_stream() -> Iterator[io.StringIO]:
    """The JSON log lines written while the test runs (the root logger is restored after)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    stream = io.StringIO()
    logs.configure_logging("DEBUG", stream=stream)
    yield stream
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)


def log_lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def add_graded_and_queued_runs(database: Database) -> None:
    """Two submissions: one graded in 0.3 s after 1.5 s in the queue, one still queued."""
    with database.session() as session:
        user = User(email="student@example.edu", name="Student")
        course = Course(title="Search 101", join_code="OPS1")
        session.add_all([user, course])
        session.flush()
        exercise = Exercise(course_id=course.id, slug="fig52", title="Figure 5.2")
        session.add(exercise)
        session.flush()
        version = ExerciseVersion(exercise_id=exercise.id, content_hash="0" * 64, files={})
        session.add(version)
        session.flush()
        graded = Submission(
            user_id=user.id, exercise_id=exercise.id, attempt=1, filename="a.py", source=""
        )
        waiting = Submission(
            user_id=user.id,
            exercise_id=exercise.id,
            attempt=2,
            filename="b.py",
            source="",
            origin="lti",
        )
        session.add_all([graded, waiting])
        session.flush()
        queued_at = utcnow() - timedelta(minutes=1)
        started_at = queued_at + timedelta(seconds=1.5)
        session.add_all(
            [
                GradingRun(
                    submission_id=graded.id,
                    exercise_version_id=version.id,
                    state=RunState.GRADED,
                    verdict="correct",
                    queued_at=queued_at,
                    started_at=started_at,
                    finished_at=started_at + timedelta(seconds=0.3),
                ),
                GradingRun(
                    submission_id=waiting.id,
                    exercise_version_id=version.id,
                    state=RunState.QUEUED,
                    queued_at=queued_at,
                ),
            ]
        )


def sample(exposition: str, name: str, labels: str = "") -> float:
    """The value of one sample of the text exposition (``labels`` as written in it)."""
    series = f"{name}{{{labels}}}" if labels else name
    for line in exposition.splitlines():
        if line.startswith(f"{series} "):
            return float(line.split(" ", 1)[1])
    raise AssertionError(f"no sample {series} in:\n{exposition}")


# Health and readiness


def test_healthz_answers_without_the_database(tmp_path: Path) -> None:
    app = make_app(tmp_path, database_url=DEAD_DATABASE)
    response = app.test_client().get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


def test_readyz_is_ok_when_database_and_broker_answer(ops_client: FlaskClient) -> None:
    response = ops_client.get("/readyz")
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == {
        "status": "ok",
        "checks": {"database": {"ok": True}, "broker": {"ok": True}, "workers": {"ok": True}},
    }


def test_readyz_is_503_when_the_database_is_down(tmp_path: Path) -> None:
    app = make_app(tmp_path, database_url=DEAD_DATABASE)
    app.extensions["grader.settings"].instance_dir.mkdir(parents=True)
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    body = response.get_json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"]["ok"] is False
    assert "OperationalError" in body["checks"]["database"]["error"]
    assert body["checks"]["broker"] == {"ok": True}


def test_readyz_is_503_when_redis_is_down(tmp_path: Path) -> None:
    app = make_app(tmp_path, redis_url=DEAD_REDIS)
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    checks = response.get_json()["checks"]
    assert checks["database"] == {"ok": True}
    assert checks["broker"]["ok"] is False
    assert "ConnectionError" in checks["broker"]["error"]


def test_readyz_is_503_when_the_broker_folder_is_missing(tmp_path: Path) -> None:
    app = make_app(tmp_path, database_url=f"sqlite:///{tmp_path / 'elsewhere.db'}")
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    assert "does not exist" in response.get_json()["checks"]["broker"]["error"]


@pytest.mark.skipif(not os.environ.get("GRADER_TEST_REDIS_URL"), reason="no test Redis")
def test_readyz_pings_redis(tmp_path: Path) -> None:
    app = make_app(tmp_path, redis_url=os.environ["GRADER_TEST_REDIS_URL"])
    worker_alive(app)
    response = app.test_client().get("/readyz")
    assert response.status_code == 200, response.get_json()


def test_ops_endpoints_need_neither_sign_in_nor_csrf(ops_client: FlaskClient) -> None:
    for path in ("/healthz", "/readyz", "/metrics"):
        assert ops_client.get(path).status_code == 200, path


# Metrics


def test_metrics_of_an_empty_database(ops_client: FlaskClient) -> None:
    response = ops_client.get("/metrics")
    assert response.status_code == 200
    assert response.content_type.startswith("text/plain")
    exposition = response.get_data(as_text=True)
    assert sample(exposition, "grader_database_up") == 1
    assert sample(exposition, "grader_runs", 'state="queued"') == 0
    assert sample(exposition, "grader_grading_seconds_count") == 0
    assert sample(exposition, "grader_queue_wait_seconds_bucket", 'le="+Inf"') == 0


def test_metrics_count_the_database_rows(ops_app: Flask, ops_client: FlaskClient) -> None:
    add_graded_and_queued_runs(ops_app.extensions["grader.db"])
    exposition = ops_client.get("/metrics").get_data(as_text=True)
    for name, kind in [
        ("grader_database_up", "gauge"),
        ("grader_submissions_total", "counter"),
        ("grader_runs", "gauge"),
        ("grader_verdicts_total", "counter"),
        ("grader_grading_seconds", "histogram"),
        ("grader_queue_wait_seconds", "histogram"),
        ("grader_http_requests_total", "counter"),
        ("grader_http_request_duration_seconds", "histogram"),
    ]:
        assert f"# TYPE {name} {kind}\n" in exposition, name
    assert_figures_of_graded_and_queued_runs(exposition)


def assert_figures_of_graded_and_queued_runs(exposition: str) -> None:
    assert sample(exposition, "grader_submissions_total", 'origin="web"') == 1
    assert sample(exposition, "grader_submissions_total", 'origin="lti"') == 1
    assert sample(exposition, "grader_runs", 'state="queued"') == 1
    assert sample(exposition, "grader_runs", 'state="graded"') == 1
    assert sample(exposition, "grader_runs", 'state="running"') == 0
    assert sample(exposition, "grader_verdicts_total", 'verdict="correct"') == 1
    grading = "grader_grading_seconds"
    assert sample(exposition, f"{grading}_bucket", 'le="0.25"') == 0
    assert sample(exposition, f"{grading}_bucket", 'le="0.5"') == 1
    assert sample(exposition, f"{grading}_bucket", 'le="+Inf"') == 1
    assert sample(exposition, f"{grading}_count") == 1
    assert sample(exposition, f"{grading}_sum") == pytest.approx(0.3, abs=0.01)
    waiting = "grader_queue_wait_seconds"
    assert sample(exposition, f"{waiting}_bucket", 'le="1.0"') == 0
    assert sample(exposition, f"{waiting}_bucket", 'le="2.0"') == 1
    assert sample(exposition, f"{waiting}_bucket", 'le="60.0"') == 1
    assert sample(exposition, f"{waiting}_count") == 1
    assert sample(exposition, f"{waiting}_sum") == pytest.approx(1.5, abs=0.01)


def test_metrics_count_requests_by_endpoint(ops_client: FlaskClient) -> None:
    ops_client.get("/healthz")
    exposition = ops_client.get("/metrics").get_data(as_text=True)
    labels = 'endpoint="ops.healthz",method="GET",status="200"'
    assert sample(exposition, "grader_http_requests_total", labels) >= 1


def test_metrics_say_when_the_database_cannot_be_read(tmp_path: Path) -> None:
    database = Database(DEAD_DATABASE)
    with database.sessions() as session:
        body, content_type = render_metrics(session)
    exposition = body.decode()
    assert content_type.startswith("text/plain")
    assert sample(exposition, "grader_database_up") == 0
    assert "grader_http_requests" in exposition


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, migrated PostgreSQL database, dropped after the test."""
    base = os.environ.get("GRADER_TEST_DATABASE_URL", "")
    if not base.startswith("postgresql"):
        pytest.skip("no test PostgreSQL (GRADER_TEST_DATABASE_URL)")
    name = f"grader_ops_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(base).set(database=name).render_as_string(hide_password=False)
    try:
        upgrade(url)
        yield url
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_metrics_count_the_rows_of_postgresql(postgres_url: str) -> None:
    database = Database(postgres_url)
    try:
        add_graded_and_queued_runs(database)
        with database.sessions() as session:
            body, _ = render_metrics(session)
    finally:
        database.engine.dispose()
    assert_figures_of_graded_and_queued_runs(body.decode())


# Request ids and logs


def test_a_safe_request_id_is_echoed(ops_client: FlaskClient) -> None:
    response = ops_client.get("/healthz", headers={"X-Request-ID": "lb-7f3a.01_x"})
    assert response.headers["X-Request-ID"] == "lb-7f3a.01_x"


@pytest.mark.parametrize("given", [None, "", "has space", "<script>", "x" * 65, "é"])
def test_a_missing_or_unsafe_request_id_is_replaced(
    ops_client: FlaskClient, given: str | None
) -> None:
    headers = {} if given is None else {"X-Request-ID": given}
    response = ops_client.get("/healthz", headers=headers)
    assert re.fullmatch(r"[0-9a-f]{32}", response.headers["X-Request-ID"])


def test_every_response_carries_a_request_id(ops_client: FlaskClient) -> None:
    refused = ops_client.post("/login", data={"email": "a@b.c"})  # no CSRF token
    missing = ops_client.get("/no/such/page")
    guarded = ops_client.get("/", headers={"X-Request-ID": "abc"})
    assert refused.status_code == 400
    assert missing.status_code == 404
    for response in (refused, missing):
        assert re.fullmatch(r"[0-9a-f]{32}", response.headers["X-Request-ID"])
    assert guarded.headers["X-Request-ID"] == "abc"


def test_each_request_logs_one_json_line_with_its_id(
    ops_client: FlaskClient, log_stream: io.StringIO
) -> None:
    ops_client.get("/healthz", headers={"X-Request-ID": "req-1"})
    ops_client.get("/no/such/page", headers={"X-Request-ID": "req-2"})
    lines = [line for line in log_lines(log_stream) if line["logger"] == "grader.logs"]
    assert [(line["request_id"], line["path"], line["status"]) for line in lines] == [
        ("req-1", "/healthz", 200),
        ("req-2", "/no/such/page", 404),
    ]
    assert [line["level"] for line in lines] == ["DEBUG", "INFO"]
    for line in lines:
        assert line["method"] == "GET"
        assert isinstance(line["duration_ms"], float)
        assert {"time", "message"} <= set(line)


def test_register_twice_installs_the_hooks_once(
    ops_app: Flask, ops_client: FlaskClient, log_stream: io.StringIO
) -> None:
    ops.register(ops_app)
    ops_client.get("/no/such/page")
    assert len([line for line in log_lines(log_stream) if line["logger"] == "grader.logs"]) == 1


def test_the_request_id_is_unbound_after_the_request(ops_client: FlaskClient) -> None:
    ops_client.get("/healthz", headers={"X-Request-ID": "gone"})
    assert "request_id" not in logs.current_ids()


def test_bound_ids_appear_on_lines_logged_inside_the_block(log_stream: io.StringIO) -> None:
    log = logging.getLogger("grader.test")
    with logs.bind(task_id="task-9", submission_id=42):
        log.info("grading %s", "a.py")
        with logs.bind(submission_id=43):
            log.warning("inner")
        log.info("after")
    log.info("outside")
    lines = log_lines(log_stream)
    assert [
        (line["message"], line.get("task_id"), line.get("submission_id")) for line in lines
    ] == [
        ("grading a.py", "task-9", 42),
        ("inner", "task-9", 43),
        ("after", "task-9", 42),
        ("outside", None, None),
    ]


def test_exceptions_are_logged_inside_the_json_line(log_stream: io.StringIO) -> None:
    try:
        raise ValueError("bad tree")
    except ValueError:
        logging.getLogger("grader.test").exception("grading failed")
    (line,) = log_lines(log_stream)
    assert line["level"] == "ERROR"
    assert "ValueError: bad tree" in str(line["exception"])


def test_only_known_ids_can_be_bound() -> None:
    with pytest.raises(TypeError, match="user_id"), logs.bind(user_id=1):
        pass


def test_celery_processes_log_json_lines(
    log_stream: io.StringIO, capsys: pytest.CaptureFixture[str]
) -> None:
    from celery.signals import setup_logging

    logs.install_celery()
    logs.install_celery()
    try:
        setup_logging.send(sender=None, loglevel="WARNING", logfile=None, format="", colorize=False)
        assert logging.getLogger().level == logging.WARNING
        capsys.readouterr()
        with logs.bind(task_id="task-1", submission_id=7):
            logging.getLogger("celery.app.trace").warning("Task failed")
        (line,) = [json.loads(text) for text in capsys.readouterr().err.splitlines()]
        assert (line["message"], line["task_id"], line["submission_id"]) == (
            "Task failed",
            "task-1",
            7,
        )
    finally:
        setup_logging.disconnect(dispatch_uid="grader.logs")


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A folder on a file system of its own, 16 MiB (a tmpfs: needs root)."""
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_readyz_is_503_while_the_embedded_databases_disk_is_full(small_disk: Path) -> None:
    app = make_app(small_disk, readiness_min_free_bytes=4 * 2**20)
    worker_alive(app)
    client = app.test_client()
    assert client.get("/readyz").status_code == 200, client.get("/readyz").get_json()
    filler = small_disk / "filler"
    with filler.open("wb") as out, contextlib.suppress(OSError):  # the disk is full
        while True:
            out.write(b"\0" * 2**20)
            out.flush()
    response = client.get("/readyz")
    assert response.status_code == 503
    checks = response.get_json()["checks"]
    assert checks["database"]["ok"] is False
    assert "MiB free" in checks["database"]["error"] or "full" in checks["database"]["error"]
    assert checks["broker"]["ok"] is False
    filler.unlink()
    assert client.get("/readyz").status_code == 200
    app.extensions["grader.db"].engine.dispose()


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
def test_readyz_is_503_while_redis_refuses_writes(tmp_path: Path) -> None:
    """Redis out of memory with no eviction answers a ping but refuses every message."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--maxmemory-policy", "noeviction"],
        stdout=subprocess.DEVNULL, preexec_fn=end_with_test,
    )  # fmt: skip
    try:
        client = redis.Redis(port=port)
        for _ in range(100):
            with contextlib.suppress(redis.ConnectionError):
                client.ping()
                break
            time.sleep(0.05)
        app = make_app(tmp_path, redis_url=f"redis://127.0.0.1:{port}/0")
        worker_alive(app)
        assert app.test_client().get("/readyz").status_code == 200
        client.config_set("maxmemory", "1")  # below what it uses already: no write fits
        response = app.test_client().get("/readyz")
        assert response.status_code == 503
        assert client.ping()
        assert "OutOfMemoryError" in response.get_json()["checks"]["broker"]["error"]
        client.config_set("maxmemory", "0")
        assert app.test_client().get("/readyz").status_code == 200
        client.close()
    finally:
        server.terminate()
        server.wait(10)
