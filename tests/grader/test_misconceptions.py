"""Each stored report's nearest misconception in its run's columns, and the migration that
fills them for older runs. On SQLite and on PostgreSQL."""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import datetime

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.migrate import alembic_config, upgrade
from grader.models import Course, Exercise, GradingRun, User
from grader.models.submissions import SubmissionKind
from grader.services.exercise_store import import_library
from grader.services.runs import finish_run, start_run
from grader.services.submissions import submit
from reference.report import DiagnosisReport, MisconceptionReport, Report, RunVerdict, TreeCase
from tests.grader.conftest import Backend, SentAfterCommit, add_user

SLUG = "aima-fig5.2-alphabeta"
NEVER_RAISED = "alphabeta/wrong_alpha_never_updated"
NO_PRUNING = "alphabeta/wrong_no_pruning"
ADDED = "added/keeps_first_child"


def diagnosis(implementation: str, exact: bool = True) -> DiagnosisReport:
    """A diagnosis whose nearest misconception is the library's ``implementation``."""
    return DiagnosisReport(
        exact=exact,
        summary="Your search behaves like one with a known mistake.",
        trees=3,
        misconceptions=[
            MisconceptionReport(
                implementations=[implementation],
                name="as the diagnosis names it",
                explanation="An explanation.",
                pseudocode="Figure 5.7",
                hint="A hint.",
                trees_matched=3 if exact else 1,
                closeness=1.0 if exact else 0.5,
                evidence=[],
                hidden_trees=2,
                hidden_matched=2 if exact else 0,
            )
        ],
    )


def report(verdict: str = "failed", found: DiagnosisReport | None = None) -> Report:
    """A report of Figure 5.2 with ``verdict`` and, when given, its diagnosis."""
    passed = verdict == "passed"
    tree = RunVerdict.PASSED if passed else RunVerdict.FAILED
    return Report(
        exercise=SLUG,
        verdict=RunVerdict(verdict),
        score=100.0 if passed else 0.0,
        max_score=100,
        message="",
        cases=[TreeCase(name="fig5.2", hidden=False, verdict=tree)],
        diagnosis=found,
    )


def shows(implementation: str, exact: bool = True) -> Report:
    """A failed report whose nearest misconception is ``implementation``."""
    return report("failed", diagnosis(implementation, exact))


def exercise_of(backend: Backend, session: Session) -> Exercise:
    return session.scalars(
        select(Exercise).where(Exercise.course_id == backend.course.id, Exercise.slug == SLUG)
    ).one()


def attempt(
    backend: Backend,
    student: User,
    graded: Report,
    finished_at: datetime | None = None,
    kind: SubmissionKind = SubmissionKind.ATTEMPT,
) -> tuple[int, int]:
    """``student`` submits, and the worker stores ``graded`` as the run's report: the ids
    of the submission and its run."""
    with backend.database.session() as session:
        submission = submit(
            session, backend.settings, student, exercise_of(backend, session), "a.py", "x = 1\n",
            kind=kind,
        )  # fmt: skip
        submission_id, run_id = submission.id, submission.runs[0].id
    sent = SentAfterCommit()
    with backend.database.session() as session:
        delivery = start_run(session, backend.settings, sent, run_id, "w", "t").delivery
    with backend.database.session() as session:
        assert finish_run(session, backend.settings, sent, run_id, delivery, graded)
        if finished_at is not None:
            run = session.get(GradingRun, run_id)
            assert run is not None
            run.finished_at = finished_at
    return submission_id, run_id


def student(backend: Backend, name: str) -> User:
    return add_user(
        backend.database, f"{name.lower()}-{secrets.token_hex(4)}@example.edu", "student",
        backend.course, name,
    )  # fmt: skip


# Storing.


def test_a_stored_report_fills_its_runs_nearest_misconception(backend: Backend) -> None:
    ada = student(backend, "Ada")
    _, exact = attempt(backend, ada, shows(NEVER_RAISED))
    _, nearest = attempt(backend, ada, shows(NO_PRUNING, exact=False))
    _, passed = attempt(backend, ada, report("passed"))
    _, broken = attempt(backend, ada, report("compile_error"))
    with backend.database.session() as session:
        columns = {
            run_id: (name, is_exact)
            for run_id, name, is_exact in session.execute(
                select(GradingRun.id, GradingRun.misconception, GradingRun.misconception_exact)
            )
        }
    assert columns[exact] == (NEVER_RAISED, True)
    assert columns[nearest] == (NO_PRUNING, False)
    assert columns[passed] == columns[broken] == (None, None)


# The migration.


@pytest.mark.parametrize("fresh_url", ["sqlite", "postgresql"], indirect=True)
def test_the_migration_fills_the_columns_of_runs_stored_before_it(
    fresh_url: str, settings: Settings
) -> None:
    upgrade(fresh_url)
    settings = replace(settings, database_url=fresh_url)
    database = Database(fresh_url)
    try:
        with database.session() as session:
            course = Course(title="Before", join_code=secrets.token_hex(4).upper())
            session.add(course)
            session.flush()
            import_library(session, settings, course)
        backend = Backend("before", settings, database, course)
        ada = add_user(database, "ada@example.edu", "student", course)
        _, exact = attempt(backend, ada, shows(NEVER_RAISED))
        _, nearest = attempt(backend, ada, shows(ADDED, exact=False))
        _, passed = attempt(backend, ada, report("passed"))
        database.engine.dispose()

        command.downgrade(alembic_config(fresh_url), "0008")
        upgrade(fresh_url)

        database = Database(fresh_url)
        with database.session() as session:
            columns = {
                run_id: (name, is_exact)
                for run_id, name, is_exact in session.execute(
                    select(GradingRun.id, GradingRun.misconception, GradingRun.misconception_exact)
                )
            }
        assert columns == {
            exact: (NEVER_RAISED, True),
            nearest: (ADDED, False),
            passed: (None, None),
        }
    finally:
        database.engine.dispose()


def test_the_migrations_backfill_reads_the_runs_in_batches(backend: Backend) -> None:
    ada = student(backend, "Ada")
    ids = [attempt(backend, ada, shows(NEVER_RAISED))[1] for _ in range(5)]
    config = alembic_config(backend.settings.sqlalchemy_url)
    migration = ScriptDirectory.from_config(config).get_revision("0009")
    assert migration is not None
    setattr(migration.module, "BATCH", 2)  # noqa: B010  (the module loaded here only)
    with backend.database.engine.begin() as connection:
        connection.execute(
            update(GradingRun)
            .where(GradingRun.id.in_(ids))
            .values(misconception=None, misconception_exact=None)
        )
        migration.module._backfill(connection)
    with backend.database.session() as session:
        names = session.scalars(select(GradingRun.misconception).where(GradingRun.id.in_(ids)))
        assert list(names) == [NEVER_RAISED] * 5
