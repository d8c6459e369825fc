"""The account commands find accounts whatever the case of the address, and a role they
change ends the account's sessions."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from grader.cli import main
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Course, Membership, Role, User


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Database:
    url = f"sqlite:///{tmp_path / 'grader.db'}"
    upgrade(url)
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    monkeypatch.setenv("GRADER_ENV", "development")
    monkeypatch.setenv("GRADER_INSTANCE_DIR", str(tmp_path))
    with Database(url).session() as session:
        session.add(User(email="ada@uni.example", name="Ada", role=Role.STUDENT))
    return Database(url)


def _user(database: Database) -> User:
    with database.sessions() as session:
        user = session.scalar(select(User).where(User.email == "ada@uni.example"))
        assert user is not None
        return user


def test_create_admin_finds_the_account_whatever_the_case_and_ends_its_sessions(
    database: Database,
) -> None:
    before = _user(database).session_version
    result = CliRunner().invoke(
        main,
        ["users", "create-admin", "--email", " Ada@Uni.Example "],
        env={"GRADER_ADMIN_PASSWORD": "a long password"},
    )
    assert result.exit_code == 0, result.output
    after = _user(database)
    assert after.role == Role.ADMIN
    assert after.session_version > before
    with database.sessions() as session:
        assert session.query(User).count() == 1


def test_making_a_student_a_course_instructor_ends_their_sessions(database: Database) -> None:
    before = _user(database).session_version
    result = CliRunner().invoke(
        main, ["courses", "create", "Search", "--instructor", "ADA@uni.example"]
    )
    assert result.exit_code == 0, result.output
    after = _user(database)
    assert after.role == Role.INSTRUCTOR
    assert after.session_version > before
    with database.sessions() as session:
        course = session.scalar(select(Course).where(Course.title == "Search"))
        assert course is not None
        assert (
            session.scalar(select(Membership.role).where(Membership.course_id == course.id))
            == Role.INSTRUCTOR
        )
