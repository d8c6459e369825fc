"""Which Redis database each part of the suite may use (and empty).

One Redis server serves the whole suite, whose two pytest runs (scripts/test.sh) go on at
the same time, each in two processes. A test that empties a database (a broker that lost
its messages, a worker's queues made fresh) must own it: emptying another test's database
takes that test's messages, and its run waits for ever. So every database is derived from
the one the suite is given (``GRADER_TEST_REDIS_URL``, 15 unless told), counting down and
wrapping round Redis's 16, never named by a number of its own:

    base              the tests of the engine and the web app (keys only, nothing emptied)
    base-1, base-2    ``broker_of_this_process``: the first and second process of that run
    base-3 ...        the service tests (scripts/test.sh gives them base-3 as their base):
                      REDIS_PER_PROCESS databases per process, see tests/integration
"""

from __future__ import annotations

import os

DEFAULT_REDIS = "redis://127.0.0.1:6379/15"

PROCESSES = 2
"""The processes of one pytest run (``-n 2``)."""

SERVICE_TESTS_BELOW = 1 + PROCESSES
"""How far below the suite's base the service tests' own base is (scripts/test.sh)."""


def make_url_with_db(url: str, db: int) -> str:
    """``url`` (redis://host:port/n) with database ``db``."""
    base, _, last = url.rstrip("/").rpartition("/")
    return f"{base}/{db}" if last.isdigit() and base.count("/") >= 2 else f"{url.rstrip('/')}/{db}"


def db_below(url: str, below: int) -> int:
    """The database ``below`` numbers under ``url``'s (0 when it names none), wrapping
    round Redis's 16."""
    base, _, last = url.rstrip("/").rpartition("/")
    db = int(last) if last.isdigit() and base.count("/") >= 2 else 0
    return (db - below) % 16


def process_index() -> int:
    """This pytest process's number in a parallel run (pytest-xdist's ``gwN``), else 0."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    return int(worker) if worker.isdigit() else 0


def broker_of_this_process(base: str) -> str:
    """A database below ``base`` that only this process of the run uses: one a test may
    empty."""
    return make_url_with_db(base, db_below(base, 1 + process_index() % PROCESSES))
