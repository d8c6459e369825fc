"""The database: one engine and session factory per process, built from the settings."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event, exc, select
from sqlalchemy.orm import InstrumentedAttribute, Session, sessionmaker

from grader.config import Settings

IDLE_CHECK_SECONDS = 5.0
"""A pooled connection idle for longer is checked (a round trip) before it is used again:
the server may have restarted meanwhile. One in steady use is not checked each time."""


class Database:
    """An engine and its sessions."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            event.listen(self.engine, "checkout", _check_if_idle)
            event.listen(self.engine, "checkin", _note_checkin)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @classmethod
    def from_settings(cls, settings: Settings) -> Database:
        if not settings.database_url:
            settings.instance_dir.mkdir(parents=True, exist_ok=True)
        return cls(settings.sqlalchemy_url)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session committed at the end of the block, rolled back on an exception."""
        session = self.sessions()
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
        finally:
            session.close()


def lock_for_update(session: Session, key: InstrumentedAttribute[int], value: int) -> None:
    """Hold the row whose ``key`` is ``value`` until the session's transaction ends: another
    transaction that asks for it waits, then reads what this one committed.

    PostgreSQL locks the row (``SELECT ... FOR UPDATE``). SQLite has no row locks
    (SQLAlchemy leaves ``FOR UPDATE`` out) but one writer at a time: the transaction takes
    the database's write lock now, as ``BEGIN IMMEDIATE`` does, rather than at its first
    write, after reads that another writer may have made stale meanwhile.
    """
    connection = session.connection()
    if connection.dialect.name != "sqlite":
        session.execute(select(key).where(key == value).with_for_update())
        return
    driver = connection.connection.driver_connection
    # Python's sqlite3 opens a transaction only before a write: one already open has written,
    # so it holds the write lock already.
    if driver is not None and not driver.in_transaction:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _check_if_idle(connection: Any, record: Any, _proxy: object) -> None:
    """Before handing out a connection that has been idle, check that the server still
    answers; a dead one is replaced (the pool retries the checkout on DisconnectionError)."""
    idle_since = record.info.get("checked_in")
    if idle_since is None or time.monotonic() - idle_since < IDLE_CHECK_SECONDS:
        return
    try:
        cursor = connection.cursor()
        try:
            cursor.execute("SELECT 1")
        finally:
            cursor.close()
    except Exception as error:
        raise exc.DisconnectionError(f"a pooled connection is gone: {error}") from error


def _note_checkin(_connection: object, record: Any) -> None:
    record.info["checked_in"] = time.monotonic()


def _sqlite_pragmas(connection: object, _record: object) -> None:
    cursor = connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()
