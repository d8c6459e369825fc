"""The tasks' base class: the job's id bound to the log lines, errors sorted."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy.exc import OperationalError

from grader.config import Settings
from grader.db import Database
from grader.logs import current_ids
from grader.services.jobs import KINDS
from worker import tasks


def test_every_kind_of_job_has_a_task_of_the_job_base_class() -> None:
    for name in KINDS:
        assert isinstance(tasks.app.tasks[name], tasks.JobTask), name


def test_no_task_hides_celery_s_queue_attribute() -> None:
    # Beat and apply_async read a task's ``queue`` as a queue's name: a method there broke
    # the scheduled reaper.
    for task in (tasks.reap_stuck_runs, tasks.sweep_deliveries, tasks.grade_run):
        assert not callable(getattr(task, "queue", None)), task.name


def test_a_task_binds_its_job_to_the_log_and_logs_a_failure_once(
    monkeypatch: pytest.MonkeyPatch, database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    seen: list[dict[str, str | int]] = []

    def failing(_database: Database, _settings: Settings, _version_id: int, task_id: str) -> str:
        seen.append(current_ids())
        raise RuntimeError("the analysis broke")

    monkeypatch.setattr(tasks, "_database", lambda: database)
    monkeypatch.setattr(tasks, "analyse", failing)
    with caplog.at_level(logging.ERROR, logger="worker.tasks"), pytest.raises(RuntimeError):
        tasks.analyse_version(7)

    assert seen == [{"job_id": 7}]
    assert [record.getMessage() for record in caplog.records] == [
        "worker.tasks.analyse_version of job 7 failed"
    ]
    assert current_ids() == {}


def test_a_lost_database_is_tried_again_not_logged_as_a_failure(
    monkeypatch: pytest.MonkeyPatch, database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    def lost(_database: Database, _settings: Settings, _version_id: int, task_id: str) -> str:
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    monkeypatch.setattr(tasks, "_database", lambda: database)
    monkeypatch.setattr(tasks, "analyse", lost)
    assert OperationalError in tasks.analyse_version.autoretry_for
    with caplog.at_level(logging.INFO, logger="worker.tasks"), pytest.raises(Exception):  # noqa: B017, PT011
        tasks.analyse_version(8)

    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
