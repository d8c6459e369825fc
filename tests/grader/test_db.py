"""The database's connection pool: a connection the server dropped while it sat idle in
the pool is replaced before use, without a round trip on every checkout."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from grader import db as db_module
from grader.db import Database


@pytest.fixture
def postgres() -> Iterator[Database]:
    base = os.environ.get("GRADER_TEST_DATABASE_URL", "")
    if not base.startswith("postgresql"):
        pytest.skip("no test PostgreSQL (GRADER_TEST_DATABASE_URL)")
    database = Database(base)
    try:
        yield database
    finally:
        database.engine.dispose()


def _pooled_backend_dropped(database: Database) -> int:
    """Use one pooled connection, then have the server end it; its backend's pid."""
    with database.sessions() as session:
        pid = int(session.execute(text("SELECT pg_backend_pid()")).scalar_one())
    admin = create_engine(database.url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            deadline = time.monotonic() + 5
            while connection.execute(
                text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}
            ).scalar_one():
                assert time.monotonic() < deadline, "the backend did not end"
                time.sleep(0.05)
    finally:
        admin.dispose()
    return pid


def test_an_idle_connection_the_server_dropped_is_replaced(
    postgres: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db_module, "IDLE_CHECK_SECONDS", 0.0)
    dropped = _pooled_backend_dropped(postgres)
    with postgres.sessions() as session:
        assert session.execute(text("SELECT pg_backend_pid()")).scalar_one() != dropped


def test_a_connection_in_steady_use_is_not_checked(
    postgres: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Within the idle time nothing is checked: the dropped connection is used, and fails
    # (the case the idle check exists for, and the round trip it saves otherwise).
    monkeypatch.setattr(db_module, "IDLE_CHECK_SECONDS", 3600.0)
    _pooled_backend_dropped(postgres)
    with postgres.sessions() as session, pytest.raises(OperationalError):
        session.execute(text("SELECT 1"))
