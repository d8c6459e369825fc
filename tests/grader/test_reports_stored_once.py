"""A report is stored once, in rows and a capped document beside them, and reads back as the
report that was graded: for real gradings of each algorithm family (correct, wrong, broken),
for reports cut to their limits, and across the migration that moved the old reports.
On SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import secrets
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import create_engine, select, text

from grader.config import Settings
from grader.db import Database
from grader.migrate import alembic_config, drift, upgrade
from grader.models import Course, Exercise, GradingRun, NodeResult, TreeResult
from grader.services.exercise_store import import_library, load_version
from grader.services.results import load_report
from grader.services.runs import finish_run, start_run
from grader.services.submissions import submit
from reference.report import Report
from reference.reporting.limits import LIMITS, fit
from tests.grader.conftest import Backend, SentAfterCommit, add_user, stored_report
from tests.grader.test_storage import DIAGNOSIS, finished, hostile_report, started_run
from worker.grading import grade

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "exercises" / "implementations"
GRADED = [
    ("aima-fig5.2-alphabeta", "alphabeta/correct_fail_hard.py"),
    ("aima-fig5.2-alphabeta", "alphabeta/wrong_alpha_never_updated.py"),
    ("grundy-7-minimax", "minimax/wrong_right_to_left.py"),
    ("grundy-7-negamax", "negamax/correct_alphabeta.py"),
    ("expectimax-dice", "expectimax/wrong_ignores_probabilities.py"),
    ("tictactoe-depth2-heuristic", "depth-limited/wrong_eval_negated.py"),
]
BROKEN = {
    "compile_error.py": "def max_value(state:\n    return 1\n",
    "runtime_error.py": "def max_value(*args):\n    raise ValueError('no')\n"
    "def min_value(*args):\n    raise ValueError('no')\n",
}


def _graded(settings: Settings, database: Database, course: Course, slug: str, name: str,
            source: str) -> tuple[int, Report]:  # fmt: skip
    """A run of ``source`` on ``slug``, graded as the worker grades it and stored: its id
    and the report the grading made."""
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
        ).one()
        version = exercise.current_version
        assert version is not None
        model = load_version(settings, slug, version)
    report = grade(
        model, source, name, key=settings.hidden_tree_key, exercises_dir=settings.exercises_dir
    )
    student = add_user(database, f"s-{secrets.token_hex(6)}@example.edu", "student", course)
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(Exercise.course_id == course.id, Exercise.slug == slug)
        ).one()
        run_id = submit(session, settings, student, exercise, name, source).runs[0].id
    sent = SentAfterCommit()
    with database.session() as session:
        claim = start_run(session, settings, sent, run_id, "w", "t").claim
        assert claim is not None
    with database.session() as session:
        assert finish_run(session, settings, sent, claim, report)
    return run_id, report


def _library_runs(backend: Backend) -> list[tuple[int, Report]]:
    runs = [
        _graded(backend.settings, backend.database, backend.course, slug, name,
                (LIBRARY / name).read_text(encoding="utf-8"))
        for slug, name in GRADED
    ]  # fmt: skip
    runs += [
        _graded(backend.settings, backend.database, backend.course, "aima-fig5.2-alphabeta",
                name, source)
        for name, source in BROKEN.items()
    ]  # fmt: skip
    return runs


def test_real_gradings_read_back_as_they_were_graded(backend: Backend) -> None:
    runs = _library_runs(backend)
    verdicts = set()
    for run_id, report in runs:
        assert stored_report(backend.database, run_id) == report.to_json()
        verdicts.add(report.verdict)
        # A wrong library search is diagnosed, and its diagnosis read back with the rest.
        assert (report.diagnosis is not None) == (report.verdict == "failed"), report.exercise
    # The corpus covers what it claims to.
    assert {"passed", "failed", "compile_error", "runtime_error"} <= verdicts


def test_a_run_loaded_while_it_was_graded_reads_back_its_stored_report(
    backend: Backend,
) -> None:
    """A page (or the LMS's status call) loads the run while it is graded; the worker then
    stores the result; the page reads the report: the report and the run's attributes are
    those the worker stored, together (the deferred details once came with the verdict the
    run had before: a report with no verdict, and a 500)."""
    settings, database, course = backend.settings, backend.database, backend.course
    source = (LIBRARY / "alphabeta" / "correct_fail_hard.py").read_text()
    student = add_user(database, f"s-{secrets.token_hex(6)}@example.edu", "student", course)
    with database.session() as session:
        exercise = session.scalars(
            select(Exercise).where(
                Exercise.course_id == course.id, Exercise.slug == "aima-fig5.2-alphabeta"
            )
        ).one()
        run_id = submit(session, settings, student, exercise, "search.py", source).runs[0].id
    sent = SentAfterCommit()
    with database.session() as session:
        claim = start_run(session, settings, sent, run_id, "w", "t").claim
        assert claim is not None
    _, report = _graded(settings, database, course, "aima-fig5.2-alphabeta", "a.py", source)
    with database.session() as page:
        run = page.get(GradingRun, run_id)  # as the page loads it: running, no verdict
        assert run is not None and run.state == "running" and run.verdict is None
        with database.session() as worker:
            assert finish_run(worker, settings, sent, claim, report)
        shown = load_report(page, run)
        assert shown is not None and shown.verdict == report.verdict == "passed"
        assert (run.state, run.verdict) == ("graded", "passed")


def test_the_rows_hold_the_verdicts_and_the_document_only_the_page_extras(
    backend: Backend,
) -> None:
    run_id, report = _graded(
        backend.settings, backend.database, backend.course, "aima-fig5.2-alphabeta",
        "wrong.py", (LIBRARY / "alphabeta/wrong_alpha_never_updated.py").read_text(),
    )  # fmt: skip
    public = report.cases[0]
    assert public.nodes and public.first_divergence is not None
    with backend.database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None and run.details is not None
        tree = session.scalars(
            select(TreeResult).where(TreeResult.run_id == run_id, TreeResult.position == 0)
        ).one()
        assert (tree.divergence_node, tree.divergence_message) == (
            public.first_divergence.node,
            public.first_divergence.message,
        )
        verdicts = session.execute(
            select(NodeResult.node, NodeResult.verdict)
            .where(NodeResult.tree_result_id == tree.id)
            .order_by(NodeResult.position)
        ).all()
        assert [tuple(row) for row in verdicts] == [
            (node.node, str(node.verdict)) for node in public.nodes
        ]
        # Nothing the rows hold is in the document.
        document = json.dumps(run.details)
        assert '"nodes"' not in document and '"first_divergence"' not in document
        assert '"verdict"' not in document and '"score"' not in document
        # The line the first divergence's call came from, and where its fix belongs, have no
        # column: they are details, and read back with the rest.
        assert set(run.details["cases"][0]) == {
            "replay",
            "value",
            "decision",
            "score_parts",
            "divergence_line",
            "divergence_fix",
        }
        assert run.details["cases"][0]["divergence_fix"] == {
            "line": 24,
            "site": "loop",
            "name": "alpha",
        }
    assert stored_report(backend.database, run_id) == report.to_json()


def test_a_tree_over_the_row_limit_reads_back_with_its_good_nodes_counted(
    backend: Backend,
) -> None:
    _, run_id, _ = started_run(backend)
    document = hostile_report()
    good = [{"node": f"G{n}", "verdict": "ok", "expected": n, "actual": n} for n in range(6)]
    document["cases"][0]["nodes"] = document["cases"][0]["nodes"] + good
    settings = replace(backend.settings, node_rows_limit=5)
    assert finished(backend, run_id, document, settings).deliveries == []
    stored = stored_report(backend.database, run_id)
    assert stored is not None
    case = stored["cases"][0]
    assert [node["verdict"] for node in case["nodes"]] == ["wrong_value", "wrong_value", "extra"]
    assert case["nodes_omitted"] == {"ok": 7}
    whole = Report.model_validate(document).cases[0]
    assert Counter(whole.verdict_counts()) == Counter(
        Report.model_validate(stored).cases[0].verdict_counts()
    )


def test_a_report_over_its_limit_is_cut_before_it_is_stored(backend: Backend) -> None:
    _, run_id, _ = started_run(backend)
    document = hostile_report()
    # Over its size even with its replay cut to the steps a replay keeps.
    step = {"node": "A" * 900, "event": "enter", "alpha": "-inf", "beta": "+inf"}
    document["cases"][0]["replay"]["student"] = [step] * 20_000
    document["stdout"] = "x" * 8000
    assert len(json.dumps(document, default=str)) > LIMITS.total_bytes
    assert finished(backend, run_id, document).deliveries == []
    stored = stored_report(backend.database, run_id)
    assert stored is not None
    assert stored == fit(Report.model_validate(document)).to_json()
    assert stored["cut"].startswith("the report was too large: cut replays")
    with backend.database.session() as session:
        details = session.scalar(select(GradingRun.details).where(GradingRun.id == run_id))
    assert len(json.dumps(details).encode()) <= LIMITS.total_bytes


def test_a_reports_diagnosis_is_kept_in_its_document_and_reads_back(backend: Backend) -> None:
    _, run_id, _ = started_run(backend)
    document = {**hostile_report(), "diagnosis": DIAGNOSIS}
    finished(backend, run_id, document)
    stored = stored_report(backend.database, run_id)
    assert stored is not None
    assert stored["diagnosis"] == DIAGNOSIS
    assert stored == fit(Report.model_validate(document)).to_json()
    with backend.database.session() as session:
        details = session.scalar(select(GradingRun.details).where(GradingRun.id == run_id))
    assert details["diagnosis"] == DIAGNOSIS
    # A report without one has none in its document.
    _, other, _ = started_run(backend)
    finished(backend, other, hostile_report())
    assert "diagnosis" not in (stored_report(backend.database, other) or {})


@pytest.mark.slow
@pytest.mark.parametrize("fresh_url", ["sqlite", "postgresql"], indirect=True)
def test_the_migration_moves_old_reports_and_back(fresh_url: str, settings: Settings) -> None:
    upgrade(fresh_url)
    settings = replace(settings, database_url=fresh_url)
    database = Database(fresh_url)
    try:
        with database.session() as session:
            course = Course(title="Moved", join_code=secrets.token_hex(4).upper())
            session.add(course)
            session.flush()
            import_library(session, settings, course)
        backend = Backend("moved", settings, database, course)
        runs = _library_runs(backend)
        before = {run_id: stored_report(database, run_id) for run_id, _ in runs}
        database.engine.dispose()

        command.downgrade(alembic_config(fresh_url), "0005")
        old = _old_reports(fresh_url)
        # The old column holds each report whole again, as it was graded.
        assert old == before

        upgrade(fresh_url)
        assert drift(fresh_url) == []
        database = Database(fresh_url)
        assert {run_id: stored_report(database, run_id) for run_id, _ in runs} == before
    finally:
        database.engine.dispose()


def _old_reports(url: str) -> dict[int, dict[str, Any]]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT id, report FROM grading_runs")).all()
    finally:
        engine.dispose()
    return {
        run_id: report if isinstance(report, dict) else json.loads(report)
        for run_id, report in rows
        if report is not None
    }
