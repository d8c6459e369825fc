"""Commands that set the service up: the database, the first admin, courses."""

from __future__ import annotations

import secrets

import click
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Course, Membership, Role, User
from grader.services.exercise_store import import_library


@click.group()
def db() -> None:
    """The service's database."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Create or migrate the database to the latest schema."""
    settings = Settings.from_env()
    if not settings.database_url:
        settings.instance_dir.mkdir(parents=True, exist_ok=True)
    upgrade(settings.sqlalchemy_url)
    click.echo("database is up to date")


@click.group()
def users() -> None:
    """Accounts."""


@users.command("create-admin")
@click.option("--email", required=True)
@click.option("--name", default="Administrator", show_default=True)
@click.password_option(envvar="GRADER_ADMIN_PASSWORD")
def create_admin(email: str, name: str, password: str) -> None:
    """Create an administrator account (or make an existing account one)."""
    from werkzeug.security import generate_password_hash

    database = Database.from_settings(Settings.from_env())
    with database.session() as session:
        user = session.scalar(select(User).where(User.email == email))
        if user is None:
            user = User(email=email, name=name)
            session.add(user)
        user.role = Role.ADMIN
        user.password_hash = generate_password_hash(password)
    click.echo(f"administrator {email} is ready")


@click.group()
def courses() -> None:
    """Courses."""


@courses.command("create")
@click.argument("title")
@click.option("--join-code", help="Default: a random code.")
@click.option("--instructor", "instructor_email", help="Email of the course's instructor.")
@click.option("--with-library", is_flag=True, help="Publish the shipped exercises in it.")
def create_course(
    title: str, join_code: str | None, instructor_email: str | None, with_library: bool
) -> None:
    """Create a course (idempotent by join code)."""
    settings = Settings.from_env()
    database = Database.from_settings(settings)
    code = join_code or secrets.token_urlsafe(6)
    with database.session() as session:
        course = session.scalar(select(Course).where(Course.join_code == code))
        if course is None:
            course = Course(title=title, join_code=code)
            session.add(course)
            session.flush()
        if instructor_email:
            user = session.scalar(select(User).where(User.email == instructor_email))
            if user is None:
                raise click.ClickException(f"no account with email {instructor_email}")
            if user.role == Role.STUDENT:
                user.role = Role.INSTRUCTOR
            session.add(Membership(user_id=user.id, course_id=course.id, role=Role.INSTRUCTOR))
        if with_library:
            count = len(import_library(session, settings, course))
            click.echo(f"published {count} exercises")
    click.echo(f"course {title!r}: join code {code}")
