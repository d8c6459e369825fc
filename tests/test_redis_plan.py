"""The suite's Redis databases (tests/redis_databases.py): no two parts that run at the same
time share one, whatever database the suite is given, and scripts/test.sh gives the service
tests the base the plan says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.integration.conftest import OWN_REDIS_BELOW, REDIS_PER_PROCESS, SERVICE_REDIS_BELOW
from tests.redis_databases import (
    PROCESSES,
    SERVICE_TESTS_BELOW,
    broker_of_this_process,
    db_below,
    make_url_with_db,
)

TEST_SH = Path(__file__).resolve().parent.parent / "scripts" / "test.sh"


def _services_base(given: str) -> str:
    """The service tests' base, computed as scripts/test.sh computes it."""
    script = TEST_SH.read_text()
    found = re.search(r"\(\(redis_db \+ (\d+)\) % 16\)", script)
    assert found, "scripts/test.sh no longer computes the service tests' database"
    no_db = re.search(r'services_redis="\$\{services_redis%/\}/(\d+)"', script)
    assert no_db, "scripts/test.sh no longer says the service tests' database without one given"
    last = given.rstrip("/").rpartition("/")[2]
    if re.fullmatch(r"[a-z]+://[^/]+/[0-9]+", given):
        return make_url_with_db(given, (int(last) + int(found.group(1))) % 16)
    return f"{given.rstrip('/')}/{no_db.group(1)}"


def _databases(given: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Every database the suite uses, by who uses it."""
    used: dict[str, int] = {"keys": db_below(given, 0)}
    for index in range(PROCESSES):
        monkeypatch.setenv("PYTEST_XDIST_WORKER", f"gw{index}")
        used[f"broker gw{index}"] = db_below(broker_of_this_process(given), 0)
    services = _services_base(given)
    for index in range(PROCESSES):
        own = db_below(services, REDIS_PER_PROCESS * index)
        used[f"services gw{index}"] = own
        for name, below in (("shared", SERVICE_REDIS_BELOW), ("own_redis", OWN_REDIS_BELOW)):
            assert below < REDIS_PER_PROCESS
            used[f"services gw{index} {name}"] = (own - below) % 16
    return used


@pytest.mark.parametrize(
    "given",
    ["redis://127.0.0.1:6379/15", "redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/3",
     "redis://127.0.0.1:6379", "redis://127.0.0.1:6379/"],
)  # fmt: skip
def test_no_two_parts_of_the_suite_share_a_redis_database(
    given: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    used = _databases(given, monkeypatch)
    by_database: dict[int, list[str]] = {}
    for who, db in used.items():
        by_database.setdefault(db, []).append(who)
    shared = {db: who for db, who in by_database.items() if len(who) > 1}
    assert not shared, f"given {given}: {shared}"
    assert SERVICE_TESTS_BELOW == 1 + PROCESSES


def test_the_service_tests_start_where_the_plan_says() -> None:
    base = "redis://127.0.0.1:6379/15"
    assert _services_base(base) == make_url_with_db(base, db_below(base, SERVICE_TESTS_BELOW))
