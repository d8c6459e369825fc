"""The migrations that fill tables gather those tables' statistics at once (PostgreSQL):
0006 writes every stored report's tree and node rows again, 0009 fills the runs'
misconception columns. Until autovacuum got to them every estimate on them was a guess.

A migration that found nothing to fill analyses nothing: an empty table analysed is taken
for empty rather than for never analysed, and the checks of the foreign keys to it, planned
once per connection, then scan it whole at every insert while a new class fills it."""

from __future__ import annotations

from datetime import datetime

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from grader.db import Database
from grader.migrate import alembic_config, upgrade
from grader.models import (
    Course,
    Exercise,
    ExerciseVersion,
    GradingRun,
    RunState,
    Submission,
    User,
)
from grader.services.results import store_report
from reference.report import NodeReport, Report, RunVerdict, TreeCase

FILLED = {"grading_runs", "tree_results", "node_results"}


def analysed_since(url: str, moment: datetime | None = None) -> set[str]:
    """The schema's tables analysed (since ``moment``, when given)."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return set(
                connection.execute(
                    text(
                        "SELECT relname FROM pg_stat_user_tables "
                        "WHERE schemaname = current_schema() AND last_analyze IS NOT NULL "
                        "AND last_analyze >= coalesce(CAST(:moment AS timestamptz), '-infinity')"
                    ),
                    {"moment": moment},
                ).scalars()
            )
    finally:
        engine.dispose()


def now(url: str) -> datetime:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return datetime.fromisoformat(
                str(connection.execute(text("SELECT clock_timestamp()")).scalar_one())
            )
    finally:
        engine.dispose()


def a_graded_run(url: str) -> None:
    """One student's attempt graded, with its tree and node rows."""
    database = Database(url)
    try:
        with database.session() as session:
            course = Course(title="Filled", join_code="FILL")
            student = User(email="ada@example.edu", name="Ada")
            session.add_all([course, student])
            session.flush()
            exercise = Exercise(course_id=course.id, slug="fig", title="Figure")
            session.add(exercise)
            session.flush()
            version = ExerciseVersion(exercise_id=exercise.id, content_hash="0" * 64, files={})
            session.add(version)
            session.flush()
            submission = Submission(
                user_id=student.id, exercise_id=exercise.id, attempt=1, filename="a.py", source=""
            )
            session.add(submission)
            session.flush()
            run = GradingRun(
                submission_id=submission.id,
                exercise_version_id=version.id,
                state=RunState.GRADED,
            )
            session.add(run)
            session.flush()
            nodes = [NodeReport(node="A", verdict="ok"), NodeReport(node="B", verdict="extra")]
            case = TreeCase(name="t", hidden=False, verdict=RunVerdict.FAILED, nodes=nodes)
            report = Report(
                exercise="fig",
                verdict=RunVerdict.FAILED,
                score=0.0,
                max_score=100,
                message="",
                cases=[case],
            )
            store_report(session, run, report, node_rows_limit=100)
    finally:
        database.engine.dispose()


@pytest.mark.parametrize("fresh_url", ["postgresql"], indirect=True)
def test_the_migrations_analyse_the_tables_they_fill(fresh_url: str) -> None:
    upgrade(fresh_url)
    a_graded_run(fresh_url)
    command.downgrade(alembic_config(fresh_url), "0005")  # the reports whole in their runs
    started = now(fresh_url)

    upgrade(fresh_url)

    assert analysed_since(fresh_url, started) == FILLED


@pytest.mark.parametrize("fresh_url", ["postgresql"], indirect=True)
def test_migrating_an_empty_database_analyses_nothing(fresh_url: str) -> None:
    upgrade(fresh_url)

    assert analysed_since(fresh_url) == set()
