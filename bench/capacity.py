"""What one submission costs each part of the service, and what a term of a course costs.

On the service's own topology (bench/service_runs.py: a fresh PostgreSQL schema, an
emptied Redis database, the Celery workers as ``scripts/run.sh`` starts them), for the
smallest and the largest shipped exercise (by public-tree nodes), ``--submissions``
correct and as many wrong submissions are sent and graded. Measured per submission:

- worker CPU: user + system time of every process under the workers' (the Celery
  processes, their fork-servers and sandboxed children, counted when waited for), less
  the same processes' idle CPU over as long a time;
- PostgreSQL CPU: the same for the server processes of the service's connections (named
  after its schema; connections kept open by the pools, so few are missed); Redis CPU:
  the same for the ``redis-server`` process (shared: run on a quiet machine);
- database rows and bytes: rows counted in each table of the schema, the bytes they hold
  (``pg_column_size``), and the tables with their indexes and TOAST on disk
  (``pg_total_relation_size``), before and after;
- broker messages: Redis's count of LPUSH commands (every message sent), before and after.

Then what a term costs, from those figures: a 1,000-student course with 10 exercises and
20 attempts each (200,000 submissions, as if every exercise were the small one, then the
large one): rows, disk, worker CPU hours, the peak rate of a deadline (a quarter of one
exercise's attempts in its last two hours) and the cores it needs, and how many worker
hosts (of ``--host-cores`` cores, busy at that rate) one PostgreSQL core and one Redis
serve, by their CPU per submission.

    .venv/bin/python bench/capacity.py [--submissions 30] [--host-cores 8]

Needs PostgreSQL and Redis (GRADER_TEST_DATABASE_URL / GRADER_BENCH_REDIS_URL, else local;
the Redis database is emptied) and root (the sandbox).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import redis
from service_runs import LIBRARY, Service, finished, service
from sqlalchemy import inspect, text
from topology import FAST_SLOTS, SLOW_SLOTS

from reference.exercises import load_catalog

ROOT = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")
SOURCES = {
    # algorithm: (the library's folder, a correct and a wrong implementation)
    "alphabeta": ("alphabeta", "correct_fail_hard.py", "wrong_no_pruning.py"),
    "minimax": ("minimax", "correct_plain.py", "wrong_child_searched_twice.py"),
    "depth-limited-minimax": ("depth-limited", "correct_countdown.py", "wrong_cutoff_one_early.py"),
}
STUDENTS, EXERCISES, ATTEMPTS = 1_000, 10, 20
DEADLINE_SHARE, DEADLINE_HOURS = 0.25, 2.0


def _cpu(pids: Iterable[int]) -> float:
    """Seconds of CPU of ``pids`` and of their children waited for."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        total += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    return total / TICKS


def _processes() -> list[tuple[int, int, str]]:
    """(pid, parent pid, command name) of every process."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            head, tail = (entry / "stat").read_text().rsplit(")", 1)
        except (FileNotFoundError, ProcessLookupError):
            continue
        found.append((int(entry.name), int(tail.split()[1]), head.split("(", 1)[1]))
    return found


def _descendants(roots: set[int], processes: list[tuple[int, int, str]]) -> set[int]:
    """``roots`` and every process below them (fork-servers and their children included,
    whatever session or group they made for themselves)."""
    children: dict[int, list[int]] = {}
    for pid, parent, _ in processes:
        children.setdefault(parent, []).append(pid)
    found, stack = set(), list(roots)
    while stack:
        pid = stack.pop()
        if pid not in found:
            found.add(pid)
            stack.extend(children.get(pid, []))
    return found


def tiers(bench: Service) -> dict[str, float]:
    """CPU seconds so far of the workers, PostgreSQL and Redis."""
    processes = _processes()
    workers = _descendants({process.pid for process in bench.workers.processes}, processes)
    return {
        "workers": _cpu(workers),
        "postgres": _cpu(backends(bench)),
        "redis": _cpu(pid for pid, _, name in processes if name.startswith("redis-server")),
    }


def backends(bench: Service) -> list[int]:
    """The PostgreSQL server processes serving the bench's service (its connections are
    named after its schema)."""
    name = bench.database.engine.url.query["application_name"]
    with bench.database.engine.connect() as connection:
        return [
            int(pid)
            for pid in connection.execute(
                text("SELECT pid FROM pg_stat_activity WHERE application_name = :name"),
                {"name": name},
            ).scalars()
        ]


def stored(bench: Service) -> tuple[dict[str, int], int, int]:
    """Rows in each table of the bench's schema; the bytes its rows hold (each row's stored
    size, ``pg_column_size``: exact, but without indexes and page overhead); and the bytes
    its tables take on disk with their indexes and TOAST (``pg_total_relation_size``: grows
    a page of 8 KiB at a time)."""
    with bench.database.engine.connect() as connection:
        names = inspect(connection).get_table_names()
        rows, data, disk = {}, 0, 0
        for name in names:
            count, size = connection.execute(
                text(f'SELECT count(*), coalesce(sum(pg_column_size(t.*)), 0) FROM "{name}" t')
            ).one()
            rows[name] = int(count)
            data += int(size)
            disk += int(
                connection.execute(
                    text("SELECT pg_total_relation_size(CAST(:name AS regclass))"), {"name": name}
                ).scalar_one()
            )
    return rows, data, disk


def pushes(bench: Service) -> int:
    """Messages sent to Redis so far (LPUSH commands, server-wide)."""
    stats: dict[str, dict[str, int]] = redis.Redis.from_url(bench.settings.redis_url).info(
        "commandstats"
    )  # type: ignore[assignment]
    return int(stats.get("cmdstat_lpush", {}).get("calls", 0))


@dataclass(frozen=True)
class PerSubmission:
    worker_cpu: float
    postgres_cpu: float
    redis_cpu: float
    rows: dict[str, float]
    data: float
    disk: float
    messages: float
    seconds: float


def measure(slug: str, family: str, count: int) -> PerSubmission:
    """Per submission, over ``count`` correct and ``count`` wrong ones of ``slug``."""
    folder_name, *names = SOURCES[family]
    correct, wrong = ((LIBRARY / folder_name / name).read_text(encoding="utf-8") for name in names)
    with (
        tempfile.TemporaryDirectory(prefix="capacity-") as folder,
        service(Path(folder), slug, f"Capacity {slug}") as bench,
    ):
        # Warm: each worker process's first grading builds the exercise's pool, and its
        # first failed one its diagnosis's kept signatures.
        warm = [
            bench.send(f"warm-{n}@example.edu", correct if n % 2 else wrong)[0]
            for n in range(4 * (FAST_SLOTS + SLOW_SLOTS))
        ]
        assert len(finished(bench.database, warm, 300)) == len(warm)
        time.sleep(1.0)
        idle_from, idle_began = tiers(bench), time.monotonic()
        time.sleep(3.0)
        idle_to, idle_seconds = tiers(bench), time.monotonic() - idle_began
        rows_before, data_before, disk_before = stored(bench)
        messages_before = pushes(bench)
        before, began = tiers(bench), time.monotonic()
        runs = [
            bench.send(f"student-{n}@example.edu", correct if n % 2 else wrong)[0]
            for n in range(2 * count)
        ]
        done = finished(bench.database, runs, 600)
        assert len(done) == len(runs), f"{len(done)} of {len(runs)} graded"
        after, took = tiers(bench), time.monotonic() - began
        messages_after = pushes(bench)
        rows_after, data_after, disk_after = stored(bench)
    n = len(runs)

    def spent(tier: str) -> float:
        idle = (idle_to[tier] - idle_from[tier]) / idle_seconds * took
        return max(0.0, after[tier] - before[tier] - idle) / n

    rows = {
        name: (rows_after[name] - rows_before.get(name, 0)) / n
        for name in rows_after
        if rows_after[name] != rows_before.get(name, 0)
    }
    return PerSubmission(
        spent("workers"),
        spent("postgres"),
        spent("redis"),
        rows,
        (data_after - data_before) / n,
        (disk_after - disk_before) / n,
        (messages_after - messages_before) / n,
        took / n,
    )


def largest(slugs: list[str]) -> str:
    """The shipped exercise (of the families benched) with the most public-tree nodes."""
    catalog = load_catalog(ROOT / "exercises")
    usable = [
        slug
        for slug in slugs
        if catalog.get(slug).algorithm in SOURCES and catalog.get(slug).contract.name == "textbook"
    ]
    return max(usable, key=lambda slug: sum(len(t.tree) for t in catalog.get(slug).trees))


def term(label: str, cost: PerSubmission, host_cores: int) -> None:
    submissions = STUDENTS * EXERCISES * ATTEMPTS
    rate = STUDENTS * ATTEMPTS * DEADLINE_SHARE / (DEADLINE_HOURS * 3600)
    host_rate = host_cores / cost.worker_cpu
    print(f"  a term as if every exercise were {label}: {submissions:,} submissions")
    print(f"    rows {sum(cost.rows.values()) * submissions:,.0f}, "
          f"row data {cost.data * submissions / 2**30:.1f} GiB "
          f"(on disk with indexes {cost.disk * submissions / 2**30:.1f} GiB), "
          f"worker CPU {cost.worker_cpu * submissions / 3600:.1f} h")  # fmt: skip
    print(f"    deadline peak {rate:.2f} submissions/s: {rate * cost.worker_cpu:.2f} worker "
          f"cores busy, PostgreSQL {rate * cost.postgres_cpu:.3f} cores, "
          f"Redis {rate * cost.redis_cpu:.4f} cores")  # fmt: skip
    print(f"    a worker host of {host_cores} cores grades {host_rate:.0f} submissions/s; "
          f"one PostgreSQL core serves "
          f"{1 / max(cost.postgres_cpu, 1e-6) / host_rate:.1f} such hosts, "
          f"one Redis {1 / max(cost.redis_cpu, 1e-6) / host_rate:.0f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=30)
    parser.add_argument("--host-cores", type=int, default=8)
    args = parser.parse_args()
    catalog = load_catalog(ROOT / "exercises")
    benched = [("aima-fig5.2-alphabeta", "alphabeta")]
    big = largest(catalog.slugs())
    benched.append((big, catalog.get(big).algorithm))
    for slug, family in benched:
        cost = measure(slug, family, args.submissions)
        nodes = sum(len(t.tree) for t in catalog.get(slug).trees)
        print(f"{slug} ({nodes} public nodes), per submission, half correct, half wrong:")
        print(f"  worker CPU {cost.worker_cpu * 1e3:.1f} ms, PostgreSQL CPU "
              f"{cost.postgres_cpu * 1e3:.1f} ms, Redis CPU {cost.redis_cpu * 1e3:.2f} ms, "
              f"{cost.seconds * 1e3:.0f} ms of wall time per submission at full load")  # fmt: skip
        rows = ", ".join(f"{name} {count:.1f}" for name, count in sorted(cost.rows.items()))
        print(f"  rows {sum(cost.rows.values()):.1f} ({rows})")
        print(f"  row data {cost.data / 1024:.1f} KiB, on disk with indexes "
              f"{cost.disk / 1024:.1f} KiB, broker messages {cost.messages:.1f}")  # fmt: skip
        term(slug, cost, args.host_cores)


if __name__ == "__main__":
    main()
