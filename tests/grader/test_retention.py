"""Superseded attempts' node rows (grader.services.retention): deleted once a later attempt
of the same student on the same exercise has been graded for GRADER_NODE_ROWS_KEEP_DAYS,
the rest of their result kept; nothing else touched."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select

from grader.config import ConfigError, Settings
from grader.db import Database
from grader.models import Course, Exercise, GradingRun, NodeResult, Role, TreeResult, User
from grader.models.submissions import SubmissionKind
from grader.services import retention
from grader.services.results import load_report
from grader.services.submissions import submit
from tests.grader.conftest import Backend, UserFactory, configured, login
from worker.execute import execute_run

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "exercises" / "implementations" / "alphabeta"
CORRECT = (LIBRARY / "correct_fail_hard.py").read_text()
WRONG = (LIBRARY / "wrong_no_pruning.py").read_text()
NEGAMAX = (LIBRARY.parent / "negamax" / "correct_alphabeta.py").read_text()


def _exercise(backend: Backend, slug: str) -> int:
    with backend.database.session() as session:
        return session.scalars(
            select(Exercise.id).where(
                Exercise.course_id == backend.course.id, Exercise.slug == slug
            )
        ).one()


def _graded(
    backend: Backend,
    student: User,
    source: str,
    slug: str = "aima-fig5.2-alphabeta",
    kind: SubmissionKind = SubmissionKind.ATTEMPT,
) -> int:
    """A submission of ``source`` graded now; its run's id."""
    with backend.database.session() as session:
        exercise = session.get(Exercise, _exercise(backend, slug))
        assert exercise is not None
        settings = replace(backend.settings, check_min_gap_seconds=0)
        made = submit(session, settings, student, exercise, "a.py", source, kind=kind)
        run_id = made.runs[0].id
    execute_run(backend.database, backend.settings, run_id, worker="w", task_id=f"t{run_id}")
    return run_id


def _rows(backend: Backend, run_id: int) -> int:
    with backend.database.session() as session:
        return int(
            session.scalar(
                select(func.count())
                .select_from(NodeResult)
                .join(TreeResult)
                .where(TreeResult.run_id == run_id)
            )
            or 0
        )


def _finished(backend: Backend, run_id: int) -> object:
    with backend.database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None and run.finished_at is not None
        return run.finished_at


def _compact(backend: Backend, days: int, at: object) -> int:
    settings = replace(backend.settings, node_rows_keep_days=days)
    with backend.database.session() as session:
        return retention.compact(session, settings, now=at)  # type: ignore[arg-type]


def _compact_all(backend: Backend, days: int, at: object) -> None:
    """Compact batch after batch until nothing is left to compact at ``at``."""
    while _compact(backend, days, at):
        pass


def _report(backend: Backend, run_id: int) -> dict[str, object]:
    with backend.database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None
        report = load_report(session, run)
        assert report is not None
        return report.model_dump(mode="json", exclude_none=True)


def test_an_attempt_loses_its_node_rows_days_after_a_later_one_is_graded(
    backend: Backend,
) -> None:
    student = backend.user()
    first = _graded(backend, student, WRONG)
    second = _graded(backend, student, CORRECT)
    before = [_report(backend, run) for run in (first, second)]
    assert _rows(backend, first) and _rows(backend, second)
    graded = _finished(backend, second)

    # (Other tests' runs share the PostgreSQL schema: only this student's rows are read.)
    kept = _rows(backend, first)
    _compact_all(backend, 3, graded + timedelta(days=2))  # type: ignore[operator]
    _compact_all(backend, 0, graded + timedelta(days=400))  # type: ignore[operator]
    assert _rows(backend, first) == kept
    _compact_all(backend, 3, graded + timedelta(days=4))  # type: ignore[operator]
    assert _rows(backend, first) == 0 and _rows(backend, second) > 0

    after = _report(backend, first)
    assert _report(backend, second) == before[1]
    # Everything but the nodes is kept: verdicts, scores, divergences, the diagnosis.
    for old, new in zip(before[0]["cases"], after["cases"], strict=True):  # type: ignore[call-overload]
        assert {k: v for k, v in new.items() if k not in ("nodes", "nodes_omitted")} == {
            k: v for k, v in old.items() if k not in ("nodes", "nodes_omitted")
        }
        assert not new.get("nodes")
        counted: dict[str, int] = {}
        for node in old.get("nodes", []):
            counted[node["verdict"]] = counted.get(node["verdict"], 0) + 1
        assert new.get("nodes_omitted", {}) == {**counted, **old.get("nodes_omitted", {})}
    assert {k: v for k, v in after.items() if k != "cases"} == {
        k: v for k, v in before[0].items() if k != "cases"
    }


def test_only_a_later_graded_attempt_of_the_same_student_and_exercise_supersedes(
    backend: Backend,
) -> None:
    student, other = backend.user(), backend.user()
    check_before = _graded(backend, student, WRONG, kind=SubmissionKind.CHECK)
    first = _graded(backend, student, WRONG)
    elsewhere = _graded(backend, student, NEGAMAX, slug="aima-fig5.2-negamax-alphabeta")
    theirs = _graded(backend, other, WRONG)
    latest = _graded(backend, student, CORRECT)
    check_after = _graded(backend, student, WRONG, kind=SubmissionKind.CHECK)
    kept = {run: _rows(backend, run) for run in (elsewhere, theirs, latest, check_after)}
    later = _finished(backend, check_after) + timedelta(days=30)  # type: ignore[operator]

    _compact_all(backend, 1, later)

    assert _rows(backend, check_before) == 0 and _rows(backend, first) == 0
    assert {run: _rows(backend, run) for run in kept} == kept
    assert all(kept.values())


def test_compaction_goes_a_batch_at_a_time_until_none_is_left(
    settings: Settings, database: Database, course: Course, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = Backend("sqlite", settings, database, course)  # a database of this test's own
    student = backend.user()
    runs = [_graded(backend, student, WRONG) for _ in range(3)]
    monkeypatch.setattr(retention, "BATCH_TREES", 1)
    monkeypatch.setattr(retention.superseded_trees, "__defaults__", (None, 1))
    settings = replace(backend.settings, node_rows_keep_days=1)
    monkeypatch.setattr(
        retention, "utcnow", lambda: _finished(backend, runs[-1]) + timedelta(days=2)
    )  # type: ignore[operator]
    assert retention.compact_for(backend.database, settings, 60) > 0
    assert [_rows(backend, run) for run in runs[:2]] == [0, 0] and _rows(backend, runs[2]) > 0


def test_a_negative_number_of_days_is_refused() -> None:
    with pytest.raises(ConfigError, match="GRADER_NODE_ROWS_KEEP_DAYS"):
        Settings(env="development", node_rows_keep_days=-1).checked()


def test_a_compacted_attempts_page_says_when_and_why_its_nodes_went(
    app: Flask, settings: Settings, database: Database, course: Course, make_user: UserFactory
) -> None:
    backend = Backend("sqlite", settings, database, course)
    student = make_user(Role.STUDENT, course)
    first = _graded(backend, student, WRONG)
    second = _graded(backend, student, CORRECT)
    later = _finished(backend, second) + timedelta(days=15)  # type: ignore[operator]
    assert _compact(backend, 14, later) > 0
    configured(app, node_rows_keep_days=14)
    client = app.test_client()
    login(client, student)

    pages = {}
    for run_id in (first, second):
        with database.session() as session:
            run = session.get(GradingRun, run_id)
            assert run is not None
            pages[run_id] = client.get(f"/submissions/{run.submission_id}").get_data(as_text=True)

    compacted = " ".join(pages[first].split())
    assert "node-by-node feedback was removed on" in compacted
    assert f'datetime="{later.date().isoformat()}"' in compacted  # type: ignore[attr-defined]
    assert "keeps it for 14 days after a later attempt" in compacted
    assert "first divergences are kept" in compacted and "C2" in compacted  # its divergence
    assert "removed on" not in pages[second]
