"""Join codes are read without regard to case or surrounding spaces: "demo" joins the
course DEMO. An unknown code is named on the form, which keeps what was typed."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from grader.cli import main
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Course, Membership
from grader.services.mail import Outbox
from tests.grader.conftest import UserFactory, csrf_token, login


@pytest.fixture
def demo(database: Database) -> Course:
    """A course whose code is DEMO, as ``grader demo`` makes it."""
    with database.session() as session:
        found = Course(title="Demo course", join_code="DEMO")
        session.add(found)
        session.flush()
        session.expunge(found)
    return found


def join_with(client: FlaskClient, code: str) -> str:
    response = client.post("/join", data={"join_code": code, "csrf_token": csrf_token(client)})
    return html.unescape(response.get_data(as_text=True)) if response.status_code == 200 else ""


def memberships(database: Database, course: Course) -> int:
    with database.session() as session:
        return len(
            session.scalars(select(Membership).where(Membership.course_id == course.id)).all()
        )


@pytest.mark.parametrize("typed", ["demo", "DEMO", "DeMo", "  demo \t"])
def test_a_join_code_joins_in_any_case_and_with_spaces_around(
    client: FlaskClient, database: Database, demo: Course, make_user: UserFactory, typed: str
) -> None:
    login(client, make_user())

    response = client.post("/join", data={"join_code": typed, "csrf_token": csrf_token(client)})

    assert response.status_code == 302
    assert memberships(database, demo) == 1


def test_an_unknown_code_is_named_on_the_join_form(
    client: FlaskClient, database: Database, demo: Course, make_user: UserFactory
) -> None:
    login(client, make_user())

    page = join_with(client, " demo2 ")

    assert "No course has the join code 'demo2'" in page
    assert 'value=" demo2 "' in page
    assert memberships(database, demo) == 0


def test_registering_with_a_lower_case_code_sends_the_link(
    app: Flask, client: FlaskClient, demo: Course
) -> None:
    outbox = app.extensions["grader.mail"] = Outbox()
    form = {"name": "Ada", "email": "ada@example.edu", "join_code": "demo "}

    page = client.post("/register", data={**form, "csrf_token": csrf_token(client)})

    assert "Check your mail" in page.get_data(as_text=True)
    assert outbox.to("ada@example.edu")


def test_registering_with_an_unknown_code_keeps_the_name_and_email(
    app: Flask, client: FlaskClient, demo: Course
) -> None:
    outbox = app.extensions["grader.mail"] = Outbox()
    form = {"name": "Ada Lovelace", "email": "ada@example.edu", "join_code": "nope"}

    response = client.post("/register", data={**form, "csrf_token": csrf_token(client)})

    page = html.unescape(response.get_data(as_text=True))
    assert "No course has the join code 'nope'" in page
    assert 'value="Ada Lovelace"' in page
    assert 'value="ada@example.edu"' in page
    assert not outbox.to("ada@example.edu")


@pytest.fixture
def cli_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Database:
    url = f"sqlite:///{tmp_path / 'grader.db'}"
    upgrade(url)
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    monkeypatch.setenv("GRADER_ENV", "development")
    monkeypatch.setenv("GRADER_INSTANCE_DIR", str(tmp_path))
    return Database(url)


def test_a_new_code_is_stored_upper_case_and_is_one_code_in_any_case(
    cli_database: Database,
) -> None:
    first = CliRunner().invoke(main, ["courses", "create", "Search", "--join-code", "demo"])
    again = CliRunner().invoke(main, ["courses", "create", "Search", "--join-code", " Demo"])

    assert (first.exit_code, again.exit_code) == (0, 0), first.output + again.output
    assert "join code DEMO" in first.output
    with cli_database.session() as session:
        assert session.scalars(select(Course.join_code)).all() == ["DEMO"]
