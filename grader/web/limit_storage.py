"""Rate-limit counts kept in a SQLite file, shared by every process on the machine: the
storage of the embedded mode (no Redis). gunicorn serves the app from several processes;
counts kept in each one's memory would let every process allow the whole limit, so that
two workers would take twice the failed sign-ins a limit names.

The ``limits`` library finds a storage by the scheme of its URI; this one registers
``grader-sqlite`` (``grader-sqlite:///absolute/path/limits.db``). It does fixed windows,
Flask-Limiter's default strategy: per key, a count and the moment its window ends. Each
call opens its own connection, so threads and forked processes share nothing but the
file, and takes SQLite's write lock first (``BEGIN IMMEDIATE``), so that two processes
counting at once both count.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from limits.storage import Storage

SCHEME = "grader-sqlite"
BUSY_SECONDS = 10.0
"""How long a call waits for another process's write lock: each holds it for a moment."""


def uri(path: Path) -> str:
    """The storage URI of the counts in the file ``path``."""
    return f"{SCHEME}://{path.resolve()}"


class SqliteStorage(Storage):
    """Fixed-window counts in one SQLite file (see the module's docstring)."""

    STORAGE_SCHEME = [SCHEME]  # noqa: RUF012 (the type the limits library declares)

    def __init__(
        self, uri: str, wrap_exceptions: bool = False, **options: float | str | bool
    ) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        # The path is everything after "scheme://", taken literally (no URL decoding).
        self.path = Path(uri.partition("://")[2])
        self.clock: Callable[[], float] = time.time
        """Seconds since the epoch; tests move it forward instead of waiting."""
        self._ready = False

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return sqlite3.Error

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: transactions are begun and ended by hand below.
        if not self._ready:
            # On first use, not when the app is made: the app factory touches no files.
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with closing(sqlite3.connect(self.path, timeout=BUSY_SECONDS)) as db:
                # Readers then never wait for a writer (the setting stays with the file).
                db.execute("PRAGMA journal_mode=WAL")
                db.execute(
                    "CREATE TABLE IF NOT EXISTS counts ("
                    " key TEXT PRIMARY KEY, count INTEGER NOT NULL, ends_at REAL NOT NULL)"
                )
                db.commit()
            self._ready = True
        return sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with closing(self._connect()) as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Add ``amount`` to ``key``'s count, starting a window of ``expiry`` seconds when
        it has none; the count afterwards."""
        now = self.clock()
        with self._transaction() as db:
            # Ended windows go first, so that the key below either starts afresh or counts on.
            db.execute("DELETE FROM counts WHERE ends_at <= ?", (now,))
            db.execute(
                "INSERT INTO counts (key, count, ends_at) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET count = count + excluded.count",
                (key, amount, now + expiry),
            )
            row = db.execute("SELECT count FROM counts WHERE key = ?", (key,)).fetchone()
        return int(row[0])

    def _live(self, key: str) -> tuple[int, float] | None:
        with closing(self._connect()) as db:
            row = db.execute(
                "SELECT count, ends_at FROM counts WHERE key = ? AND ends_at > ?",
                (key, self.clock()),
            ).fetchone()
        return None if row is None else (int(row[0]), float(row[1]))

    def get(self, key: str) -> int:
        """``key``'s count in its current window (0 without one)."""
        live = self._live(key)
        return 0 if live is None else live[0]

    def get_expiry(self, key: str) -> float:
        """When ``key``'s window ends (now, without one)."""
        live = self._live(key)
        return self.clock() if live is None else live[1]

    def check(self) -> bool:
        try:
            with closing(self._connect()) as db:
                db.execute("SELECT 1 FROM counts LIMIT 1")
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        """Forget every count; how many keys there were."""
        with self._transaction() as db:
            return db.execute("DELETE FROM counts").rowcount

    def clear(self, key: str) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM counts WHERE key = ?", (key,))
