"""Identities: an LMS user never occupies a real address, addresses compare
case-insensitively, and the 0003 migration lower-cases addresses without merging any."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, select, text

from grader.db import Database
from grader.migrate import upgrade
from grader.models import ExternalIdentity, User
from grader.services import identities
from tests.grader.conftest import UserFactory


def test_an_lms_user_gets_a_placeholder_address_and_keeps_the_asserted_one_aside(
    database: Database, make_user: UserFactory
) -> None:
    local = make_user()
    with database.session() as session:
        made = identities.lms_user(
            session,
            namespace="integration:7",
            subject="u-1",
            name="Someone",
            email=f"  {local.email.upper()} ",
        )
        assert made.id != local.id
        assert made.email.endswith("@lms.invalid") and identities.is_placeholder(made.email)
        assert made.lms_email == local.email
        assert made.password_hash is None
        identity = session.scalars(select(ExternalIdentity)).one()
        assert (identity.source, identity.external_id, identity.user_id) == (
            "integration:7",
            "u-1",
            made.id,
        )
    with database.session() as session:
        owner = identities.find_by_email(session, local.email)
        assert owner is not None and owner.id == local.id  # still the real person's


def test_the_same_lms_user_is_found_again_and_follows_the_lms_name(database: Database) -> None:
    with database.session() as session:
        first = identities.lms_user(
            session, namespace="integration:7", subject="u-2", name="Lee", email=None
        )
    with database.session() as session:
        again = identities.lms_user(
            session, namespace="integration:7", subject="u-2", name="Lee Chen", email="l@x.edu"
        )
        assert again.id == first.id
        assert (again.name, again.lms_email) == ("Lee Chen", "l@x.edu")
        other = identities.lms_user(
            session, namespace="integration:8", subject="u-2", name="Lee", email=None
        )
        assert other.id != first.id and other.email != first.email


def test_a_linked_local_account_keeps_its_own_name(
    database: Database, make_user: UserFactory
) -> None:
    local = make_user(name="Ada Lovelace")
    with database.session() as session:
        user = session.get(User, local.id)
        assert user is not None
        identities.link(session, namespace="https://lms.example", subject="s-9", user=user)
    with database.session() as session:
        found = identities.lms_user(
            session, namespace="https://lms.example", subject="s-9", name="A. L.", email=None
        )
        assert (found.id, found.name) == (local.id, "Ada Lovelace")


def test_addresses_are_found_whatever_their_case(
    database: Database, make_user: UserFactory
) -> None:
    local = make_user()
    with database.session() as session:
        found = identities.find_by_email(session, "  " + local.email.upper())
        assert found is not None and found.id == local.id
        assert identities.find_by_email(session, "") is None


def test_of_two_legacy_accounts_differing_in_case_the_exact_spelling_wins(
    database: Database,
) -> None:
    with database.session() as session:
        session.add_all(
            [
                User(email="Mixed@Case.example", name="A", password_hash=None),
                User(email="mixed@case.example", name="B", password_hash=None),
                User(email="Only@Legacy.example", name="C", password_hash=None),
            ]
        )
    with database.session() as session:
        assert identities.find_by_email(session, "Mixed@Case.example").name == "A"  # type: ignore[union-attr]
        assert identities.find_by_email(session, "MIXED@case.example").name == "B"  # type: ignore[union-attr]
        assert identities.find_by_email(session, "only@legacy.example").name == "C"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("email", "usable"),
    [("a@b.edu", True), ("A@B.EDU ", True), ("no-at-sign", False), ("a@b", False), ("", False)],
)
def test_asserted_emails_are_normalised_or_dropped(email: str, usable: bool) -> None:
    assert identities.asserted_email(email) == (email.strip().lower() if usable else None)


def test_the_migration_lower_cases_addresses_and_reports_collisions_without_merging(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0002")
    engine = create_engine(url)
    rows = [
        (1, "Mixed@Case.example"),
        (2, "mixed@case.example"),
        (3, " Solo@Example.EDU"),
        (4, "plain@example.edu"),
        (5, "Taken@Real.example"),
    ]
    with engine.begin() as connection:
        for user_id, email in rows:
            connection.execute(
                text(
                    "INSERT INTO users (id, email, name, role, created_at) "
                    "VALUES (:id, :email, 'x', 'student', '2026-01-01 00:00:00')"
                ),
                {"id": user_id, "email": email},
            )
        connection.execute(  # user 5: made by a webhook, without a password
            text(
                "INSERT INTO external_identities (source, external_id, user_id, created_at) "
                "VALUES ('integration:3', 'stu-9', 5, '2026-01-01 00:00:00')"
            )
        )
        connection.execute(text("UPDATE users SET password_hash = 'x' WHERE id != 5"))

    upgrade(url)

    with engine.connect() as connection:
        emails = dict(connection.execute(text("SELECT id, email FROM users")).all())
        lms_emails = dict(connection.execute(text("SELECT id, lms_email FROM users")).all())
        versions = {row[0] for row in connection.execute(text("SELECT session_version FROM users"))}
    engine.dispose()
    assert emails == {
        1: "Mixed@Case.example",
        2: "mixed@case.example",
        3: "solo@example.edu",
        4: "plain@example.edu",
        5: identities.placeholder_email("integration:3", "stu-9"),
    }
    assert lms_emails[5] == "taken@real.example"  # the real address is free again
    assert {lms_emails[n] for n in (1, 2, 3, 4)} == {None}
    assert versions == {1}
    reported = capsys.readouterr().out
    assert "user 1 <Mixed@Case.example>" in reported and "user 2 <mixed@case.example>" in reported
    assert "Solo" not in reported
