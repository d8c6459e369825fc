"""The class's misconceptions: each stored report's nearest misconception in its run's
columns (and the migration that fills them for older runs), the students who show each
one now, and who moved from it to a pass, week by week. On SQLite and on PostgreSQL."""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from grader.config import Settings
from grader.db import Database
from grader.migrate import alembic_config, upgrade
from grader.models import AddedImplementation, Course, Exercise, GradingRun, RunState, User
from grader.models.submissions import SubmissionKind
from grader.services import misconceptions
from grader.services.exercise_store import import_library
from grader.services.results import store_report
from grader.services.runs import finish_run, start_run
from grader.services.submissions import submit
from reference.report import (
    ComposedReport,
    DiagnosisReport,
    MisconceptionReport,
    Report,
    RunVerdict,
    TreeCase,
)
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
        claim = start_run(session, backend.settings, sent, run_id, "w", "t").claim
        assert claim is not None
    with backend.database.session() as session:
        assert finish_run(session, backend.settings, sent, claim, graded)
        if finished_at is not None:
            run = session.get(GradingRun, run_id)
            assert run is not None
            run.finished_at = finished_at
    return submission_id, run_id


def preview(backend: Backend, submission_id: int, graded: Report) -> int:
    """A regrade's preview run of ``submission_id``, graded with ``graded`` and not counted."""
    with backend.database.session() as session:
        first = session.scalars(
            select(GradingRun).where(GradingRun.submission_id == submission_id)
        ).first()
        assert first is not None
        run = GradingRun(
            submission_id=submission_id,
            exercise_version_id=first.exercise_version_id,
            state=RunState.GRADED,
            counted=False,
            finished_at=datetime.now(UTC),
        )
        session.add(run)
        session.flush()
        store_report(session, run, graded, backend.settings.node_rows_limit)
        return run.id


def student(backend: Backend, name: str) -> User:
    return add_user(
        backend.database, f"{name.lower()}-{secrets.token_hex(4)}@example.edu", "student",
        backend.course, name,
    )  # fmt: skip


def figures(backend: Backend) -> misconceptions.ClassMisconceptions:
    with backend.database.session() as session:
        return misconceptions.class_misconceptions(
            session, exercise_of(backend, session), backend.settings.exercises_dir
        )


def by_name(
    found: misconceptions.ClassMisconceptions,
) -> dict[str, misconceptions.MisconceptionRow]:
    return {row.description.implementation: row for row in found.rows}


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


# Now.


def test_only_each_students_latest_counted_run_counts_now(backend: Backend) -> None:
    ada, bob, cy = student(backend, "Ada"), student(backend, "Bob"), student(backend, "Cy")
    attempt(backend, ada, shows(NO_PRUNING))
    ada_latest, _ = attempt(backend, ada, shows(NEVER_RAISED))
    bob_latest, _ = attempt(backend, bob, shows(NEVER_RAISED, exact=False))
    attempt(backend, cy, report("passed"))
    attempt(backend, cy, report("runtime_error"))
    # A check counts towards nothing.
    attempt(backend, cy, shows(NO_PRUNING), kind=SubmissionKind.CHECK)

    found = figures(backend)

    rows = by_name(found)
    raised = rows[NEVER_RAISED]
    assert [(s.name, s.submission_id, s.exact) for s in raised.now] == [
        ("Ada", ada_latest, True),
        ("Bob", bob_latest, False),
    ]
    assert (raised.exact, raised.nearest) == (1, 1)
    assert raised.now[0].email == ada.email
    # Ada no longer shows it, but did.
    assert rows[NO_PRUNING].now == [] and rows[NO_PRUNING].trajectory.ever == 1
    assert [row.description.implementation for row in found.rows] == [NEVER_RAISED, NO_PRUNING]
    assert found.outcomes == misconceptions.Outcomes(passed=0, undiagnosed=1)


def test_a_regrade_preview_never_counts(backend: Backend) -> None:
    ada = student(backend, "Ada")
    submission_id, _ = attempt(backend, ada, shows(NEVER_RAISED))
    preview(backend, submission_id, report("passed"))
    bob = student(backend, "Bob")
    bob_submission, _ = attempt(backend, bob, report("passed"))
    preview(backend, bob_submission, shows(NO_PRUNING))

    found = figures(backend)

    rows = by_name(found)
    assert set(rows) == {NEVER_RAISED}
    raised = rows[NEVER_RAISED]
    assert [s.name for s in raised.now] == ["Ada"]
    assert (raised.trajectory.ever, raised.trajectory.still, raised.trajectory.moved) == (1, 1, [])
    assert found.outcomes == misconceptions.Outcomes(passed=1, undiagnosed=0)


# Over time.


def test_a_student_who_showed_it_then_passed_moved_and_one_who_regressed_did_not(
    backend: Backend,
) -> None:
    week_47 = datetime(2026, 11, 17, 10, tzinfo=UTC)  # ISO 2026-W47
    week_48 = datetime(2026, 11, 24, 10, tzinfo=UTC)
    week_49 = datetime(2026, 12, 1, 10, tzinfo=UTC)
    fixed, regressed, relapsed = (
        student(backend, "Fix"),
        student(backend, "Reg"),
        student(backend, "Rel"),
    )
    # Showed it, then passed: moved, in the week of the pass.
    attempt(backend, fixed, shows(NEVER_RAISED), week_47)
    attempt(backend, fixed, shows(NEVER_RAISED), week_48)
    passed_submission, _ = attempt(backend, fixed, report("passed"), week_49)
    attempt(backend, fixed, report("passed"), week_49)
    # Passed first, then showed it: not moved, still shows it.
    attempt(backend, regressed, report("passed"), week_47)
    attempt(backend, regressed, shows(NEVER_RAISED), week_48)
    # Showed it, passed, showed it again: not moved, still shows it.
    attempt(backend, relapsed, shows(NEVER_RAISED), week_47)
    attempt(backend, relapsed, report("passed"), week_48)
    attempt(backend, relapsed, shows(NEVER_RAISED), week_49)

    with backend.database.session() as session:
        trajectory = misconceptions.trajectories(session, exercise_of(backend, session))[
            NEVER_RAISED
        ]

    assert (trajectory.ever, trajectory.still) == (3, 2)
    assert [(s.name, s.submission_id, s.passed_at) for s in trajectory.moved] == [
        ("Fix", passed_submission, week_49)
    ]
    assert trajectory.weeks == [
        misconceptions.Week("2026-W47", first_shown=2, moved=0),
        misconceptions.Week("2026-W48", first_shown=1, moved=0),
        misconceptions.Week("2026-W49", first_shown=0, moved=1),
    ]
    row = by_name(figures(backend))[NEVER_RAISED]
    assert sorted(s.name for s in row.now) == ["Reg", "Rel"]


# Names.


def test_names_come_from_the_library_the_exercises_added_ones_or_the_stem(
    backend: Backend,
) -> None:
    with backend.database.session() as session:
        exercise = exercise_of(backend, session)
        session.add(
            AddedImplementation(
                exercise_id=exercise.id, stem="keeps_first_child", source="x = 1\n",
                name="the first child's value kept", explanation="It never compares.",
                pseudocode="Figure 5.3", hint="Compare.",
            )
        )  # fmt: skip
    for implementation in (NEVER_RAISED, ADDED, "added/gone", "alphabeta/wrong_renamed"):
        attempt(backend, student(backend, "S"), shows(implementation))

    rows = by_name(figures(backend))

    shipped = rows[NEVER_RAISED].description
    assert (shipped.name, shipped.known, shipped.added) == (
        "alpha never raised at MAX nodes",
        True,
        False,
    )
    assert shipped.pseudocode.startswith("Figure 5.7")
    added = rows[ADDED].description
    assert (added.name, added.explanation, added.added, added.known) == (
        "the first child's value kept",
        "It never compares.",
        True,
        True,
    )
    assert rows["added/gone"].description.name == "gone"
    assert not rows["added/gone"].description.known
    assert rows["alphabeta/wrong_renamed"].description.name == "wrong_renamed"


def test_two_mistakes_made_together_are_one_row_named_by_both(backend: Backend) -> None:
    found = diagnosis(NO_PRUNING, exact=False)
    told = found.misconceptions[0]
    found.composed = ComposedReport(
        misconceptions=[
            told.model_copy(update={"implementations": [NEVER_RAISED]}),
            told.model_copy(update={"implementations": ["alphabeta/wrong_initial_value_zero"]}),
        ],
        trees_explained=3,
    )
    _, run_id = attempt(backend, student(backend, "S"), report("failed", found))
    key = f"{NEVER_RAISED}+wrong_initial_value_zero"
    with backend.database.session() as session:
        run = session.get(GradingRun, run_id)
        assert run is not None
        assert (run.misconception, run.misconception_exact) == (key, True)
    row = by_name(figures(backend))[key]
    assert row.description.name == "alpha never raised at MAX nodes + v starts at 0, not −∞ / +∞"
    assert row.description.known
    assert "Figure 5.7, MAX-VALUE: α ← MAX(α, v) · " in row.description.pseudocode
    assert [s.name for s in row.now] == ["S"] and row.now[0].exact


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
