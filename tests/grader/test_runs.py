"""Grading runs: executing them once whatever the claims, the reaper, storage (regrades:
test_regrades.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from grader.config import Settings
from grader.db import Database
from grader.models import (
    Course,
    Exercise,
    GradingRun,
    NodeResult,
    RunState,
    Submission,
    TreeResult,
    utcnow,
)
from grader.services.results import result_rows
from grader.services.runs import (
    Claim,
    finish_run,
    mark_sent,
    queue_position,
    retry_run,
    start_run,
    stuck_runs,
)
from grader.services.submissions import standing, submit
from tests.grader.conftest import SentAfterCommit, UserFactory
from worker.execute import execute_run

LIBRARY = Path(__file__).resolve().parents[2] / "exercises" / "implementations" / "alphabeta"


def _submit(
    database: Database, settings: Settings, course: Course, make_user: UserFactory, name: str
) -> tuple[int, int]:
    student = make_user(course=course)
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(
                Exercise.course_id == course.id, Exercise.slug == "aima-fig5.2-alphabeta"
            )
        ).one()
        source = (LIBRARY / name).read_text()
        submission = submit(session, settings, student, exercise, name, source)
    with database.session() as session:
        run_id = session.scalars(
            select(GradingRun.id).where(GradingRun.submission_id == submission.id)
        ).one()
    return submission.id, run_id


def _node_rows(database: Database, run_id: int) -> dict[str, str]:
    with database.session() as session:
        rows = session.execute(
            select(NodeResult.node, NodeResult.verdict)
            .join(TreeResult)
            .where(TreeResult.run_id == run_id, TreeResult.position == 0)
        ).all()
    return dict(rows)  # type: ignore[arg-type]


def test_a_run_is_graded_once_whatever_the_claims(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    _, run_id = _submit(database, settings, course, make_user, "correct_fail_hard.py")
    assert execute_run(database, settings, run_id, worker="w1", task_id="t1") == "graded"
    assert execute_run(database, settings, run_id, worker="w1", task_id="t1") == "skipped"
    verdicts = _node_rows(database, run_id)
    assert verdicts["C2"] == verdicts["C3"] == "pruned"
    assert {verdicts[name] for name in verdicts if name not in ("C2", "C3")} == {"ok"}
    with database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None
        assert (run.state, run.verdict, run.score, run.claims) == ("graded", "passed", 100, 1)
        assert run.started_at is not None and run.finished_at is not None
        assert run.worker == "w1"
        rows = session.scalar(
            select(func.count())
            .select_from(NodeResult)
            .join(TreeResult)
            .where(TreeResult.run_id == run_id)
        )
        assert rows == len(verdicts)  # hidden trees keep no node rows
        trees = session.scalars(select(TreeResult).where(TreeResult.run_id == run_id)).all()
        assert [tree.hidden for tree in trees].count(True) == 8


def test_a_wrong_submission_gets_its_flagged_nodes(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    _, run_id = _submit(database, settings, course, make_user, "wrong_no_pruning.py")
    assert execute_run(database, settings, run_id, worker="w", task_id="t") == "graded"
    verdicts = _node_rows(database, run_id)
    assert verdicts["C2"] == verdicts["C3"] == "extra"
    with database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None and run.verdict == "failed"


def test_a_claim_that_lost_its_run_stores_nothing(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    _, run_id = _submit(database, settings, course, make_user, "correct_fail_hard.py")
    sent = SentAfterCommit()
    with database.session() as session:
        first = start_run(session, settings, sent, run_id, "w1", "t1")
    with database.session() as session:
        second = start_run(session, settings, sent, run_id, "w2", "t1")  # the task received again
    assert (first.claim, second.claim) == (Claim(run_id, 1), Claim(run_id, 2))
    report = {"verdict": "passed", "score": 1, "max_score": 1, "message": "", "cases": []}
    report["exercise"] = "aima-fig5.2-alphabeta"
    with database.session() as session:
        assert finish_run(session, settings, sent, Claim(run_id, 1), report) is False
    with database.session() as session:
        assert finish_run(session, settings, sent, Claim(run_id, 2), report) is True
    assert (sent.runs, sent.deliveries) == ([], [])  # no LMS asked for the result


def test_what_a_rolled_back_unit_of_work_asked_to_send_is_never_sent(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    _, run_id = _submit(database, settings, course, make_user, "correct_fail_hard.py")
    sent = SentAfterCommit()
    with database.session() as session:
        claim = start_run(session, settings, sent, run_id, "w", "t").claim
        assert claim is not None
    last = replace(settings, max_run_attempts=1)

    def ended_then_failed() -> None:
        with database.session() as session:
            # The run would end as internal_error, then the unit of work fails.
            assert retry_run(session, last, sent, claim, "the sandbox failed")
            raise RuntimeError("the unit of work fails after the change")

    with pytest.raises(RuntimeError):
        ended_then_failed()
    with database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None and run.state == RunState.RUNNING
    with database.session() as session:
        retried = retry_run(session, settings, sent, claim, "the sandbox failed")
        assert retried is not None and retried.again
        assert sent.runs == []  # not before the commit
    assert sent.runs == [run_id]  # once, after it


def test_a_run_claimed_too_often_ends_as_internal_error(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    submission_id, run_id = _submit(database, settings, course, make_user, "correct_fail_hard.py")
    # The same task received again and again, as after its workers were lost mid-run.
    for _ in range(settings.max_run_attempts):
        with database.session() as session:
            started = start_run(session, settings, SentAfterCommit(), run_id, "w", "t")
            assert started.run is not None
    assert execute_run(database, settings, run_id, worker="w", task_id="t") == "skipped"
    with database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None
        assert (run.state, run.verdict) == ("error", "internal_error")
        assert "not your fault" in (run.message or "")
        # The spoiled submission does not count, but keeps its number: the next is attempt 2.
        submission = session.get(Submission, submission_id)
        assert submission is not None
        exercise = session.get(Exercise, submission.exercise_id)
        assert exercise is not None
        user_id = submission.user_id
    from grader.models import User

    with database.session() as session:
        user = session.get(User, user_id)
        assert user is not None
        assert standing(session, settings, user_id, exercise.id).attempts == 0
        again = submit(session, settings, user, exercise, "a.py", "x = 1\n")
        assert again.attempt == 2


def test_queue_positions_and_the_reaper(
    database: Database, settings: Settings, course: Course, make_user: UserFactory
) -> None:
    runs = [
        _submit(database, settings, course, make_user, "correct_fail_hard.py")[1] for _ in range(3)
    ]
    with database.session() as session:
        positions = [queue_position(session, session.get(GradingRun, run)) for run in runs]  # type: ignore[arg-type]
    assert positions == [1, 2, 3]
    now = utcnow()
    sent = SentAfterCommit()
    with database.session() as session:
        assert stuck_runs(session, settings, now) == []  # just queued, never sent: grace
    with database.session() as session:
        assert stuck_runs(session, settings, now + timedelta(seconds=31)) == runs
    with database.session() as session:
        for run_id in runs:
            mark_sent(session, run_id, f"task-{run_id}")
    with database.session() as session:
        started = start_run(session, settings, sent, runs[0], "w", f"task-{runs[0]}")
    assert started.run is not None
    settings = replace(settings, run_timeout_seconds=60)
    with database.session() as session:
        later = now + timedelta(seconds=80)
        # Re-queued at +31 s: the two still queued are not yet past the timeout again.
        assert stuck_runs(session, settings, later) == [runs[0]]
    with database.session() as session:
        run = session.get(GradingRun, runs[0])
        assert run is not None and run.state == RunState.QUEUED
    assert execute_run(database, settings, runs[0], worker="w", task_id="t2") == "graded"
    with database.session() as session:
        run = session.get(GradingRun, runs[0])
        assert run is not None and (run.claims, run.state) == (2, "graded")


@pytest.mark.parametrize(("size", "limit", "rows"), [(5, 10, 5), (50, 10, 10), (50, 40, 25)])
def test_large_trees_keep_only_remarkable_nodes(size: int, limit: int, rows: int) -> None:
    nodes = [
        {"node": f"n{i}", "verdict": "ok" if i % 2 else "extra", "expected": i, "actual": None}
        for i in range(size)
    ]
    report = {
        "exercise": "e",
        "verdict": "failed",
        "score": 1.0,
        "max_score": 2,
        "message": "m",
        "cases": [{"name": "t", "hidden": False, "verdict": "failed", "nodes": nodes}],
    }
    (tree,) = result_rows(report, node_rows_limit=limit)
    assert len(tree.nodes) == rows
    assert tree.tree["node_count"] == size
    assert tree.tree["counts"] == {"ok": size // 2, "extra": size - size // 2}
    if size > limit:
        assert {node["verdict"] for node in tree.nodes} == {"extra"}
