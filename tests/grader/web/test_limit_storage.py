"""The embedded mode's rate-limit counts live in a SQLite file that every web process
shares: counts add up across processes, windows end, and the app uses the file when no
Redis is configured."""

from __future__ import annotations

import multiprocessing
from dataclasses import replace
from pathlib import Path

from limits import parse
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from grader.config import Settings
from grader.db import Database
from grader.web import create_app
from grader.web.limit_storage import SqliteStorage, uri
from grader.web.limits import limiter


def storage_in(tmp_path: Path) -> SqliteStorage:
    found = storage_from_string(uri(tmp_path / "limits.db"))
    assert isinstance(found, SqliteStorage)
    return found


def test_counts_add_up_within_a_window_and_start_again_after_it(tmp_path: Path) -> None:
    storage = storage_in(tmp_path)
    now = storage.clock()
    storage.clock = lambda: now

    assert [storage.incr("k", 60) for _ in range(3)] == [1, 2, 3]
    assert storage.incr("k", 60, amount=2) == 5
    assert storage.get("k") == 5 and storage.get("other") == 0
    assert storage.get_expiry("k") == now + 60

    storage.clock = lambda: now + 60
    assert storage.get("k") == 0
    assert storage.incr("k", 60) == 1
    assert storage.get_expiry("k") == now + 120


def test_a_key_is_cleared_alone_and_a_reset_clears_all(tmp_path: Path) -> None:
    storage = storage_in(tmp_path)
    for key in ("a", "b", "c"):
        storage.incr(key, 60)

    storage.clear("a")
    assert (storage.get("a"), storage.get("b")) == (0, 1)
    assert storage.reset() == 2
    assert storage.get("c") == 0
    assert storage.check()


def test_a_fixed_window_limit_is_held_on_it(tmp_path: Path) -> None:
    limiter = FixedWindowRateLimiter(storage_in(tmp_path))
    item = parse("3 per minute")

    assert [limiter.hit(item, "sign-in", "ada") for _ in range(4)] == [True] * 3 + [False]
    assert limiter.test(item, "sign-in", "grace")
    assert limiter.get_window_stats(item, "sign-in", "ada").remaining == 0


def count_many(path: str, times: int) -> None:
    storage = storage_from_string(uri(Path(path)))
    for _ in range(times):
        storage.incr("shared", 60)


def test_processes_counting_at_once_all_count(tmp_path: Path) -> None:
    path = tmp_path / "limits.db"
    storage_in(tmp_path)
    processes = [
        multiprocessing.get_context("fork").Process(target=count_many, args=(str(path), 50))
        for _ in range(4)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
        assert process.exitcode == 0

    assert storage_in(tmp_path).get("shared") == 200


def test_without_redis_the_app_counts_in_the_instance_folder(
    settings: Settings, database: Database
) -> None:
    create_app(settings, database)

    assert isinstance(limiter.storage, SqliteStorage)
    assert limiter.storage.path == (settings.instance_dir / "limits.db").resolve()


def test_with_redis_the_app_counts_in_redis(settings: Settings, database: Database) -> None:
    app = create_app(replace(settings, redis_url="redis://127.0.0.1:6379/12"), database)

    assert app.config["RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:6379/12"
