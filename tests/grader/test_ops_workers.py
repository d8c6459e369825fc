"""``/readyz`` says whether a grading worker has reported lately; ``/metrics`` has the depth
of each Celery queue (here the SQLite broker's) and the age of the oldest queued run."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from flask import Flask

from grader.models import utcnow
from grader.services.tasks import GRADE_TASK
from grader.services.workers import record
from tests.grader.test_ops import add_graded_and_queued_runs, make_app, sample
from worker.celery_app import make_celery


def _beat(app: Flask, queue: str, seconds_ago: float) -> None:
    with app.extensions["grader.db"].session() as session:
        record(session, f"{queue}@test", [queue], utcnow() - timedelta(seconds=seconds_ago))


def test_readyz_is_503_when_no_grading_worker_ever_reported(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    _beat(app, "callbacks", 1)  # not a grading worker
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    body = response.get_json()
    assert body["checks"]["database"] == body["checks"]["broker"] == {"ok": True}
    assert body["checks"]["workers"]["ok"] is False
    assert (
        "no worker serving the grading queue has ever reported"
        in (body["checks"]["workers"]["error"])
    )


def test_readyz_is_503_when_the_grading_workers_heartbeat_is_stale(tmp_path: Path) -> None:
    app = make_app(tmp_path, worker_stale_seconds=120)
    _beat(app, "grading-slow", 2)
    _beat(app, "grading", 300)
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    error = response.get_json()["checks"]["workers"]["error"]
    assert "has reported for 300 s (more than 120 s)" in error
    _beat(app, "grading", 2)  # the same worker, alive again
    response = app.test_client().get("/readyz")
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["checks"]["workers"] == {"ok": True}


def test_metrics_have_the_queue_depths_and_the_oldest_queued_runs_age(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    add_graded_and_queued_runs(app.extensions["grader.db"])
    celery = make_celery(app.extensions["grader.settings"])
    for run_id in (1, 2, 3):
        celery.send_task(GRADE_TASK, args=[run_id], queue="grading")
    celery.send_task(GRADE_TASK, args=[4], queue="grading-slow")
    exposition = app.test_client().get("/metrics").get_data(as_text=True)
    assert sample(exposition, "grader_broker_up") == 1
    assert sample(exposition, "grader_queue_depth", 'queue="grading"') == 3
    assert sample(exposition, "grader_queue_depth", 'queue="grading-slow"') == 1
    assert sample(exposition, "grader_queue_depth", 'queue="callbacks"') == 0
    assert sample(exposition, "grader_queue_depth", 'queue="maintenance"') == 0
    # The queued run was queued a minute ago.
    assert 55 <= sample(exposition, "grader_oldest_queued_run_seconds") <= 120


def test_metrics_of_a_broker_that_never_held_a_message(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    exposition = app.test_client().get("/metrics").get_data(as_text=True)
    assert sample(exposition, "grader_broker_up") == 1
    assert sample(exposition, "grader_queue_depth", 'queue="grading"') == 0
    assert sample(exposition, "grader_oldest_queued_run_seconds") == 0


def test_metrics_say_when_the_broker_cannot_be_read(tmp_path: Path) -> None:
    app = make_app(tmp_path, redis_url="redis://127.0.0.1:1/0")
    exposition = app.test_client().get("/metrics").get_data(as_text=True)
    assert sample(exposition, "grader_broker_up") == 0
    assert sample(exposition, "grader_database_up") == 1


def test_readyz_is_503_while_the_slow_lane_has_no_worker(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    _beat(app, "grading", 1)
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    assert (
        "grading-slow queue has ever reported" in response.get_json()["checks"]["workers"]["error"]
    )
    _beat(app, "grading-slow", 1)
    assert app.test_client().get("/readyz").status_code == 200
