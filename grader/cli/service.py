"""Commands that set the service up: the database, the first admin, courses."""

from __future__ import annotations

import secrets

import click
from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Course, Membership, Role, User
from grader.services import join_codes
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
    from grader.services import identities, passwords

    email = identities.normalise_email(email)
    settings = Settings.from_env()
    database = Database.from_settings(settings)
    with database.session() as session:
        user = identities.find_by_email(session, email)
        if user is None:
            user = User(email=email, name=name)
            session.add(user)
        # A new role and password end every session the account had.
        identities.bump_sessions(user)
        user.role = Role.ADMIN
        user.password_hash = passwords.hash_password(settings, password)
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
    code = join_codes.normalise(join_code or secrets.token_urlsafe(6))
    with database.session() as session:
        # A code taken in another case is the same code: the course is found, not doubled.
        course = join_codes.find_course(session, code)
        if course is None:
            course = Course(title=title, join_code=code)
            session.add(course)
            session.flush()
        if instructor_email:
            from grader.services import identities

            user = identities.find_by_email(session, instructor_email)
            if user is None:
                raise click.ClickException(f"no account with email {instructor_email}")
            if user.role == Role.STUDENT:
                identities.bump_sessions(user)
                user.role = Role.INSTRUCTOR
            session.add(Membership(user_id=user.id, course_id=course.id, role=Role.INSTRUCTOR))
        if with_library:
            count = len(import_library(session, settings, course))
            click.echo(f"published {count} exercises")
    click.echo(f"course {title!r}: join code {code}")


DEMO_CODE = "DEMO"
DEMO_ACCOUNTS = (
    ("instructor@demo.example", "Demo Instructor", Role.INSTRUCTOR),
    ("student@demo.example", "Demo Student", Role.STUDENT),
)


@click.command()
def demo() -> None:
    """Set up a demo: course DEMO with the shipped exercises, an instructor and a student.

    Passwords are generated once and kept in the instance folder's demo-accounts.txt.
    """
    from grader.services import passwords

    settings = Settings.from_env()
    database = Database.from_settings(settings)
    accounts = settings.instance_dir / "demo-accounts.txt"
    known = dict(
        line.split(" ", 1) for line in accounts.read_text().splitlines() if " " in line
    ) if accounts.exists() else {}  # fmt: skip
    with database.session() as session:
        course = join_codes.find_course(session, DEMO_CODE)
        if course is None:
            course = Course(title="Demo course", join_code=DEMO_CODE)
            session.add(course)
            session.flush()
        import_library(session, settings, course)
        for email, name, role in DEMO_ACCOUNTS:
            user = session.scalar(select(User).where(User.email == email))
            if user is None or email not in known:
                known[email] = secrets.token_urlsafe(9)
                if user is None:
                    user = User(email=email, name=name, role=role)
                    session.add(user)
                    session.flush()
                user.password_hash = passwords.hash_password(settings, known[email])
            member = session.scalar(
                select(Membership).where(
                    Membership.user_id == user.id, Membership.course_id == course.id
                )
            )
            if member is None:
                session.add(Membership(user_id=user.id, course_id=course.id, role=role))
    settings.instance_dir.mkdir(parents=True, exist_ok=True)
    accounts.write_text("".join(f"{email} {password}\n" for email, password in known.items()))
    accounts.chmod(0o600)
    click.echo(f"demo course: join code {DEMO_CODE}")
    for email, password in known.items():
        click.echo(f"  sign in as {email} with password {password}")
