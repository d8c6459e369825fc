"""The migrations build the schema from empty, agree with the models, and go back down; the
one that makes attempt numbers unique numbers again the attempts of an older database that
share one; the one that names a run's claims keeps their counts both ways."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Connection, create_engine, insert, inspect, select, table
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql import column

from grader.config import ConfigError, Settings
from grader.db import Database
from grader.migrate import alembic_config, drift, upgrade
from grader.models import Base, Course, Exercise, GradingRun, Submission
from grader.models.submissions import ATTEMPT_NUMBERS
from grader.services.exercise_store import import_library
from grader.web import create_app
from tests.grader.conftest import add_user


def test_migrations_from_empty_match_the_models(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    upgrade(url)
    assert drift(url) == []
    engine = create_engine(url)
    tables = set(inspect(engine).get_table_names())
    engine.dispose()
    assert set(Base.metadata.tables) <= tables


@pytest.mark.slow
def test_downgrade_to_empty_and_up_again(tmp_path: Path) -> None:
    from alembic import command

    url = f"sqlite:///{tmp_path / 'cycle.db'}"
    upgrade(url)
    command.downgrade(alembic_config(url), "base")
    engine = create_engine(url)
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    engine.dispose()
    upgrade(url)
    assert drift(url) == []


def test_the_app_refuses_to_start_without_a_secret_outside_development(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="GRADER_SECRET_KEY"):
        create_app(Settings(env="production", instance_dir=tmp_path))
    with pytest.raises(ConfigError, match="too short"):
        create_app(Settings(env="production", instance_dir=tmp_path, secret_key="short"))
    strong = Settings(
        env="production",
        instance_dir=tmp_path,
        secret_key="s" * 32,
        hidden_tree_key=b"k" * 32,
        public_url="https://grader.example.edu",
    )
    app = create_app(strong)
    assert app.config["SESSION_COOKIE_SECURE"] is True


def test_settings_come_from_prefixed_variables() -> None:
    settings = Settings.from_env(
        {
            "GRADER_DATABASE_URL": "postgresql+psycopg://db/grader",
            "GRADER_REDIS_URL": "redis://cache:6379/0",
            "GRADER_UPLOAD_LIMIT_BYTES": "1000",
            "GRADER_SUBMISSIONS_PER_HOUR": "5",
            "DATABASE_URL": "ignored://",
        }
    )
    assert settings.sqlalchemy_url == "postgresql+psycopg://db/grader"
    assert settings.broker_url == settings.result_backend == "redis://cache:6379/0"
    assert (settings.upload_limit_bytes, settings.submissions_per_hour) == (1000, 5)
    assert Settings.from_env({}).broker_url.startswith("sqla+sqlite:///")


# 0010: attempt numbers of their own.

MADE = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
old_submissions = table(
    "submissions",
    *(column(name) for name in ("user_id", "exercise_id", "attempt", "kind", "filename")),
    *(column(name) for name in ("source", "origin", "created_at")),
)


def old_exercises(database: Database) -> list[tuple[int, int | None]]:
    """The shipped exercises, in a new course of a database at an older revision: the id
    and current version of each, in order."""
    with database.session() as session:
        course = Course(title="Old", join_code=secrets.token_hex(4).upper())
        session.add(course)
        session.flush()
        import_library(session, Settings(), course)
        found = session.execute(
            select(Exercise.id, Exercise.current_version_id)
            .where(Exercise.course_id == course.id)
            .order_by(Exercise.id)
        ).all()
    return [(exercise_id, version_id) for exercise_id, version_id in found]


def old_submission(
    connection: Connection,
    user_id: int,
    exercise_id: int,
    number: int,
    kind: str = "attempt",
    made: datetime = MADE,
) -> int:
    """A submission written as the older revision's rows are; its id."""
    return int(
        connection.execute(
            insert(old_submissions)
            .values(
                user_id=user_id,
                exercise_id=exercise_id,
                attempt=number,
                kind=kind,
                filename="a.py",
                source="x = 1\n",
                origin="web",
                created_at=made,
            )
            .returning(column("id"))
        ).scalar_one()
    )


def test_attempts_that_share_a_number_are_numbered_again_in_the_order_made(
    tmp_path: Path,
) -> None:
    numbered_again_by_0010(f"sqlite:///{tmp_path / 'old.db'}")


def numbered_again_by_0010(url: str) -> None:
    """A database made before 0010 whose attempts share numbers (two sent at once, and a
    spoiled attempt's number given back), brought to 0010: where a student's attempts on
    an exercise share a number they are numbered 1, 2, 3... in the order they were made,
    checks stay 0, the others are left alone; then the database refuses a shared number."""
    upgrade(url, "0009")
    database = Database(url)
    try:
        (first, _), (second, _) = old_exercises(database)[:2]
        ada, bea, cy = (
            add_user(database, f"{name}-{secrets.token_hex(3)}@example.edu").id
            for name in ("ada", "bea", "cy")
        )
        # (student, exercise, number as stored, kind), in the order they were made; the
        # same minute twice: made at the same moment, in the order of their ids.
        made = [
            (ada, first, 1, "attempt", 0),
            (ada, first, 0, "check", 1),
            (ada, first, 2, "attempt", 2),  # spoiled by us: its number was given back
            (ada, first, 2, "attempt", 3),
            (ada, first, 3, "attempt", 4),  # sent at once, both counted two before them
            (ada, first, 3, "attempt", 4),
            (ada, first, 0, "check", 5),
            (ada, second, 1, "attempt", 6),
            (ada, second, 1, "attempt", 6),
            (bea, first, 1, "attempt", 7),
            (bea, first, 2, "attempt", 8),
            (cy, first, 1, "attempt", 9),
            (cy, first, 3, "attempt", 10),  # a gap, not shared: left as it is
        ]
        with database.engine.begin() as connection:
            for user_id, exercise_id, number, kind, minute in made:
                old_submission(
                    connection, user_id, exercise_id, number, kind, MADE + timedelta(minutes=minute)
                )
    finally:
        database.engine.dispose()

    upgrade(url)

    assert drift(url) == []
    database = Database(url)
    try:
        with database.session() as session:
            numbers = session.execute(
                select(Submission.user_id, Submission.exercise_id, Submission.attempt).order_by(
                    Submission.id
                )
            ).all()
        assert [tuple(row) for row in numbers] == [
            (ada, first, 1),
            (ada, first, 0),
            (ada, first, 2),
            (ada, first, 3),
            (ada, first, 4),
            (ada, first, 5),
            (ada, first, 0),
            (ada, second, 1),
            (ada, second, 2),
            (bea, first, 1),
            (bea, first, 2),
            (cy, first, 1),
            (cy, first, 3),
        ]
        with pytest.raises(IntegrityError), database.engine.begin() as connection:
            old_submission(connection, cy, first, 3)
    finally:
        database.engine.dispose()
    command.downgrade(alembic_config(url), "0009")
    engine = create_engine(url)
    try:
        assert ATTEMPT_NUMBERS not in {
            i["name"] for i in inspect(engine).get_indexes("submissions")
        }
    finally:
        engine.dispose()


# 0011: a run counts its claims (the column was called deliveries).

old_runs = table(
    "grading_runs",
    *(column(name) for name in ("id", "submission_id", "exercise_version_id", "state")),
    *(column(name) for name in ("deliveries", "queued_at")),
)


@pytest.mark.parametrize("fresh_url", ["sqlite", "postgresql"], indirect=True)
def test_a_runs_deliveries_become_its_claims_and_back_again(fresh_url: str) -> None:
    """A run claimed twice before 0011 has two claims after it, and two deliveries again
    once 0011 is undone."""
    upgrade(fresh_url, "0010")
    database = Database(fresh_url)
    try:
        exercise_id, version_id = old_exercises(database)[0]
        student = add_user(database, f"ada-{secrets.token_hex(3)}@example.edu").id
        with database.engine.begin() as connection:
            submission_id = old_submission(connection, student, exercise_id, 1)
            run_id = connection.execute(
                insert(old_runs)
                .values(
                    submission_id=submission_id,
                    exercise_version_id=version_id,
                    state="graded",
                    deliveries=2,
                    queued_at=MADE,
                )
                .returning(old_runs.c.id)
            ).scalar_one()
    finally:
        database.engine.dispose()

    upgrade(fresh_url)

    assert drift(fresh_url) == []
    database = Database(fresh_url)
    try:
        with database.session() as session:
            run = session.get(GradingRun, run_id)
            assert run is not None and run.claims == 2
    finally:
        database.engine.dispose()
    command.downgrade(alembic_config(fresh_url), "0010")
    engine = create_engine(fresh_url)
    try:
        names = {found["name"] for found in inspect(engine).get_columns("grading_runs")}
        assert "deliveries" in names and "claims" not in names
        with engine.connect() as connection:
            assert connection.scalar(select(old_runs.c.deliveries)) == 2
    finally:
        engine.dispose()
