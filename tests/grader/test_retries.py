"""Failures of ours never leave a run running nor count against the student: a grading that
raised, a sandbox that failed and a result that could not be stored are each tried again
(up to ``max_run_attempts`` claims), then the run ends as ``internal_error``.

Tasks are eager here: sending a run again grades it again at once, in this process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import DataError

from grader.models import Exercise, GradingRun, RunState, Submission, TreeResult, User
from grader.services import runs as runs_module
from grader.services.submissions import standing, submit
from reference.report import Report, RunVerdict
from tests.grader.conftest import Backend, stored_report
from worker import execute as execute_module
from worker.execute import execute_run

LIBRARY = Path(__file__).resolve().parents[2] / "exercises" / "implementations" / "alphabeta"
CORRECT = (LIBRARY / "correct_fail_hard.py").read_text()
SLUG = "aima-fig5.2-alphabeta"


def submitted(backend: Backend) -> tuple[int, int]:
    """A new student's correct submission, queued: its id and its run's."""
    student = backend.user()
    with backend.database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == backend.course.id, Exercise.slug == SLUG)
        ).one()
        submission = submit(session, backend.settings, student, exercise, "a.py", CORRECT)
        run_id = session.scalars(
            select(GradingRun.id).where(GradingRun.submission_id == submission.id)
        ).one()
        return submission.id, run_id


def the_run(backend: Backend, run_id: int) -> GradingRun:
    with backend.database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None
        session.expunge(run)
        return run


def assert_ended_by_us(backend: Backend, submission_id: int, run: GradingRun, why: str) -> None:
    assert (run.state, run.verdict, run.score) == (RunState.ERROR, "internal_error", None)
    assert run.claims == backend.settings.max_run_attempts
    message = run.message or ""
    assert f"failed {run.claims} times, the last time because {why}" in message
    assert "not your fault" in message and "does not count as an attempt" in message
    # It does not count against the student, and keeps its number: the next is attempt 2.
    with backend.database.session() as session:
        submission = session.get(Submission, submission_id)
        assert submission is not None
        exercise = session.get(Exercise, submission.exercise_id)
        user = session.get(User, submission.user_id)
        assert exercise is not None and user is not None
        assert standing(session, backend.settings, user.id, exercise.id).attempts == 0
        assert submit(session, backend.settings, user, exercise, "b.py", CORRECT).attempt == 2


class Failing:
    """Calls of a function that raise ``error`` the first ``times`` times, then call it."""

    def __init__(self, function: Any, error: Exception, times: int = 1_000) -> None:
        self.function, self.error, self.times, self.calls = function, error, times, 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls <= self.times:
            raise self.error
        return self.function(*args, **kwargs)


def test_a_result_that_cannot_be_stored_is_tried_again_then_ends_as_our_fault(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    refused = DataError("INSERT ...", {}, Exception("the database refused the report"))
    storing = Failing(runs_module.store_report, refused)
    monkeypatch.setattr(runs_module, "store_report", storing)
    submission_id, run_id = submitted(backend)

    assert execute_run(backend.database, backend.settings, run_id, worker="w", task_id="t") == (
        "retried"
    )

    assert storing.calls == backend.settings.max_run_attempts
    run = the_run(backend, run_id)
    assert_ended_by_us(backend, submission_id, run, "its result could not be stored (DataError)")
    assert stored_report(backend.database, run_id) is None and run.finished_at is not None
    with backend.database.session() as session:
        assert session.scalars(select(TreeResult).where(TreeResult.run_id == run_id)).all() == []


def test_a_result_stored_on_its_second_claim_is_graded(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    refused = DataError("INSERT ...", {}, Exception("the database refused the report"))
    monkeypatch.setattr(runs_module, "store_report", Failing(runs_module.store_report, refused, 1))
    _, run_id = submitted(backend)
    execute_run(backend.database, backend.settings, run_id, worker="w", task_id="t")
    run = the_run(backend, run_id)
    assert (run.state, run.verdict, run.claims) == (RunState.GRADED, "passed", 2)


def test_a_grading_that_raised_is_tried_again_before_it_fails(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    grading = Failing(execute_module.grade, RuntimeError("a bug of ours"), times=1)
    monkeypatch.setattr(execute_module, "grade", grading)
    _, run_id = submitted(backend)
    execute_run(backend.database, backend.settings, run_id, worker="w", task_id="t")
    run = the_run(backend, run_id)
    assert (run.state, run.verdict, run.claims, grading.calls) == (
        RunState.GRADED,
        "passed",
        2,
        2,
    )


def test_a_grading_that_always_raises_ends_as_our_fault(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    grading = Failing(execute_module.grade, RuntimeError("a bug of ours"))
    monkeypatch.setattr(execute_module, "grade", grading)
    submission_id, run_id = submitted(backend)
    execute_run(backend.database, backend.settings, run_id, worker="w", task_id="t")
    assert grading.calls == backend.settings.max_run_attempts
    run = the_run(backend, run_id)
    assert_ended_by_us(backend, submission_id, run, "the grader raised RuntimeError")


def sandbox_failing(times: int) -> Any:
    """grade(), whose sandbox fails on the first hidden tree the first ``times`` times."""
    real = execute_module.grade
    calls = []

    def grade(*args: Any, **kwargs: Any) -> Report:
        calls.append(1)
        report: Report = real(*args, **kwargs)
        if len(calls) <= times:
            report.verdict = RunVerdict.INTERNAL_ERROR
            report.message = "internal error on a hidden tree (hidden-1)"
            hidden = next(case for case in report.cases if case.hidden)
            hidden.verdict = RunVerdict.INTERNAL_ERROR
        return report

    return grade


def test_a_sandbox_failure_is_tried_again(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(execute_module, "grade", sandbox_failing(times=1))
    _, run_id = submitted(backend)
    execute_run(backend.database, backend.settings, run_id, worker="w", task_id="t")
    run = the_run(backend, run_id)
    assert (run.state, run.verdict, run.claims) == (RunState.GRADED, "passed", 2)


def test_a_sandbox_that_always_fails_ends_as_our_fault_with_its_report(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(execute_module, "grade", sandbox_failing(times=1_000))
    submission_id, run_id = submitted(backend)
    execute_run(backend.database, backend.settings, run_id, worker="w", task_id="t")
    run = the_run(backend, run_id)
    assert_ended_by_us(backend, submission_id, run, "the sandbox failed")
    # The last report is kept for the record (which tree failed).
    report = stored_report(backend.database, run_id)
    assert report is not None and report["verdict"] == "internal_error"
    assert (report["message"], report["score"]) == (run.message, None)
    with backend.database.session() as session:
        trees = session.scalars(select(TreeResult).where(TreeResult.run_id == run_id)).all()
        assert "internal_error" in [tree.verdict for tree in trees]
