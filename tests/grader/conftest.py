"""Shared fixtures of the service's tests: settings in a temporary folder, a migrated SQLite
database (copied from one migrated once per session), the app, accounts and a course; and
the same on the test PostgreSQL (``GRADER_TEST_DATABASE_URL``) where a test asks for both."""

from __future__ import annotations

import os
import re
import secrets
import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, event, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session
from werkzeug.security import generate_password_hash

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Course, Exercise, GradingRun, Membership, Role, User, VersionAnalysis
from grader.services.analyses import analyse
from grader.services.exercise_store import import_library
from grader.services.results import load_report
from grader.services.tasks import DELIVER_TASK, GRADE_TASK
from grader.services.unit_of_work import after_commit
from grader.web import create_app

PASSWORD = "correct horse battery"
TEST_PASSWORD_HASH = "pbkdf2:sha256:1000"
"""The tests' way of hashing passwords: a sign-in costs microseconds, not the 0.16 s of a
core that the service's default (scrypt) costs on purpose."""
_PASSWORD_HASH = generate_password_hash(PASSWORD, method=TEST_PASSWORD_HASH)
_TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "grader.db"
    upgrade(f"sqlite:///{path}")
    return path


COURSE_TITLE = "Search 101"
COURSE_JOIN_CODE = "S101"


@pytest.fixture(scope="session")
def course_template(migrated_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The migrated database with the ``course`` of the shipped exercises in it: imported
    once per session, copied for each test that asks for the course."""
    instance = tmp_path_factory.mktemp("course-template")
    shutil.copy(migrated_template, instance / "grader.db")
    database = Database.from_settings(Settings(env="development", instance_dir=instance))
    with database.session() as session:
        found = Course(title=COURSE_TITLE, join_code=COURSE_JOIN_CODE)
        session.add(found)
        session.flush()
        import_library(session, Settings(env="development", instance_dir=instance), found)
    database.engine.dispose()
    return instance / "grader.db"


@pytest.fixture
def settings(tmp_path: Path, migrated_template: Path, request: pytest.FixtureRequest) -> Settings:
    instance = tmp_path / "instance"
    instance.mkdir()
    template = migrated_template
    if {"course", "backend"} & set(request.fixturenames):
        template = request.getfixturevalue("course_template")
    shutil.copy(template, instance / "grader.db")
    return Settings(
        env="development",
        instance_dir=instance,
        eager_tasks=True,
        submission_min_gap_seconds=0,
        submissions_per_hour=1000,
        password_hash=TEST_PASSWORD_HASH,
    )


@pytest.fixture
def database(settings: Settings) -> Iterator[Database]:
    db = Database.from_settings(settings)
    yield db
    db.engine.dispose()


@pytest.fixture
def app(settings: Settings, database: Database) -> Flask:
    return create_app(settings, database)


def configured(app: Flask, **changes: object) -> None:
    """Change the running app's settings (and its queue's) for one test."""
    settings = replace(app.extensions["grader.settings"], **changes)
    app.extensions["grader.settings"] = settings
    app.extensions["grader.queue"].settings = settings


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def course(database: Database, settings: Settings) -> Course:
    """A course with the shipped exercises published in it: the copy of
    ``course_template``'s, or imported here when ``settings`` gave another database."""
    with database.session() as session:
        found = session.scalar(select(Course).where(Course.join_code == COURSE_JOIN_CODE))
        if found is None:
            found = Course(title=COURSE_TITLE, join_code=COURSE_JOIN_CODE)
            session.add(found)
            session.flush()
            import_library(session, settings, found)
    return found


UserFactory = Callable[..., User]


def add_user(
    database: Database,
    email: str,
    role: str = Role.STUDENT,
    course: Course | None = None,
    name: str = "",
) -> User:
    """An account signing in with ``PASSWORD``, a member of ``course`` when given."""
    with database.session() as session:
        user = User(
            email=email,
            name=name or f"{role.title()} {email.split('@')[0]}",
            role=role,
            password_hash=_PASSWORD_HASH,
        )
        session.add(user)
        session.flush()
        if course is not None:
            member_role = Role.STUDENT if role == Role.STUDENT else Role.INSTRUCTOR
            session.add(Membership(user_id=user.id, course_id=course.id, role=member_role))
    return user


@pytest.fixture
def make_user(database: Database) -> UserFactory:
    counter = iter(range(1, 10_000))

    def make(role: str = Role.STUDENT, course: Course | None = None, name: str = "") -> User:
        number = next(counter)
        name = name or f"{role.title()} {number}"
        return add_user(database, f"{role}{number}@example.edu", role, course, name)

    return make


def analysed(database: Database, settings: Settings, course: Course, *slugs: str) -> None:
    """The current versions of ``course``'s exercises ``slugs`` analysed in this process, as
    a worker would do it: their pages read the analysis (its traces and tree drawings)."""
    with database.session() as session:
        versions = session.scalars(
            select(Exercise.current_version_id).where(
                Exercise.course_id == course.id, Exercise.slug.in_(slugs)
            )
        ).all()
        for version_id in versions:
            if session.get(VersionAnalysis, version_id) is None:
                session.add(VersionAnalysis(version_id=version_id))
    for version_id in versions:
        assert version_id is not None
        analyse(database, settings, version_id, task_id="test")


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A migrated schema of its own on the test PostgreSQL, dropped afterwards (skipped
    without ``GRADER_TEST_DATABASE_URL``)."""
    base = os.environ.get("GRADER_TEST_DATABASE_URL", "")
    if not base.startswith("postgresql"):
        pytest.skip("no test PostgreSQL (GRADER_TEST_DATABASE_URL)")
    schema = f"grader_unit_{secrets.token_hex(4)}"
    admin = create_engine(base)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    rendered = url.render_as_string(hide_password=False)
    try:
        upgrade(rendered)
        yield rendered
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def fresh_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of its own, for a migration's test: SQLite, or a schema of the test
    PostgreSQL (parametrized indirectly with ``"sqlite"`` or ``"postgresql"``)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'fresh.db'}"
        return
    base: str = request.getfixturevalue("pg_url")
    admin = create_engine(make_url(base).set(query={}))
    schema = f"grader_move_{secrets.token_hex(4)}"
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@dataclass(frozen=True)
class Backend:
    """A database with the settings that name it and a course of the shipped exercises."""

    name: str
    settings: Settings
    database: Database
    course: Course

    def user(self, role: str = Role.STUDENT) -> User:
        """A new member of the course (a unique address: PostgreSQL's schema is shared)."""
        return add_user(
            self.database, f"{role}-{secrets.token_hex(6)}@example.edu", role, self.course
        )


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, settings: Settings) -> Iterator[Backend]:
    """The test once on SQLite, once on the test PostgreSQL."""
    if request.param == "sqlite":
        database: Database = request.getfixturevalue("database")
        yield Backend("sqlite", settings, database, request.getfixturevalue("course"))
        return
    url: str = request.getfixturevalue("pg_url")
    settings = replace(settings, database_url=url)
    database = Database(url)
    try:
        with database.session() as session:
            found = Course(title="Search on PostgreSQL", join_code=secrets.token_hex(4).upper())
            session.add(found)
            session.flush()
            import_library(session, settings, found)
        yield Backend("postgresql", settings, database, found)
    finally:
        database.engine.dispose()


@contextmanager
def counted(database: Database) -> Iterator[list[str]]:
    """The SQL statements run on ``database`` inside the block."""
    statements: list[str] = []

    def note(*args: Any) -> None:
        statements.append(args[2])

    event.listen(database.engine, "before_cursor_execute", note)
    try:
        yield statements
    finally:
        event.remove(database.engine, "before_cursor_execute", note)


def csrf_token(client: FlaskClient) -> str:
    """A valid CSRF token for ``client``'s session."""
    page = client.get("/login").get_data(as_text=True)
    match = _TOKEN.search(page)
    assert match, "no CSRF token on the sign-in page"
    return match.group(1)


def login(client: FlaskClient, user: User) -> None:
    response = client.post(
        "/login", data={"email": user.email, "password": PASSWORD, "csrf_token": csrf_token(client)}
    )
    assert response.status_code == 302, response.get_data(as_text=True)


def stored_report(database: Database, run_id: int) -> dict[str, Any] | None:
    """The report stored for run ``run_id``, read back as the pages and the API read it
    (its JSON document); None when it stored none."""
    with database.session() as session:
        run = session.get(GradingRun, run_id)
        report = None if run is None else load_report(session, run)
        return None if report is None else report.to_json()


class SentAfterCommit:
    """A dispatcher for tests of the services (:class:`grader.services.unit_of_work.Dispatcher`):
    it records the jobs they ask to send, by kind, when (and only if) the session commits,
    and sends nothing."""

    def __init__(self) -> None:
        self.sent: dict[str, list[int]] = {}

    def dispatch(self, session: Session, kind: str, ids: Iterable[int]) -> None:
        ids = list(ids)
        if ids:
            after_commit(session, lambda: self.sent.setdefault(kind, []).extend(ids))

    @property
    def runs(self) -> list[int]:
        """The runs sent."""
        return self.sent.setdefault(GRADE_TASK, [])

    @property
    def deliveries(self) -> list[int]:
        """The outbound deliveries sent."""
        return self.sent.setdefault(DELIVER_TASK, [])
