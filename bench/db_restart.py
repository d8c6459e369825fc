"""A database restart during a burst of submissions: how long until every run is graded,
side by side with the reaper's timeout (which was how long a run whose message was taken
while the database was away waited before).

The bench starts a PostgreSQL cluster of its own (initdb in a temporary folder, on a free
port; the machine's shared server is not touched), Redis (a database of its own, emptied)
and the Celery workers as scripts/run.sh starts them (fast and slow grading lanes,
callbacks, maintenance with the beat; ``GRADER_RUN_TIMEOUT_SECONDS`` left at its 900 s).
For each scenario, ``--burst`` submissions are sent at once; ``--after`` seconds later the
database stays up (the baseline) or goes away: a restart (``pg_ctl restart -m fast``, under
a second) or an outage of ``--down`` seconds (stop, wait, start). Figures: seconds from the
burst to the last run graded, the runs' verdicts (internal_error among them, if any), and
claims per run.

Usage: .venv/bin/python bench/db_restart.py [--burst 40] [--after 0.5] [--down 10]
Run as root, it runs PostgreSQL as the user postgres (initdb refuses root).
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError
from topology import ServiceWorkers, free_port, library_exercise

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Exercise, GradingRun, RunState, User
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK

ROOT = Path(__file__).resolve().parents[1]
SLUG = "aima-fig5.2-alphabeta"
CORRECT = (ROOT / "exercises/implementations/alphabeta/correct_fail_hard.py").read_text()
PG_BIN = Path(os.environ.get("GRADER_BENCH_PG_BIN", "/usr/lib/postgresql/15/bin"))


class Cluster:
    """A throwaway PostgreSQL cluster in ``folder``, run as the user postgres when root."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            folder.parent.chmod(0o755)  # mkdtemp's folder: postgres must get through it
            shutil.chown(folder, "postgres")
        self._run(PG_BIN / "initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres")
        self.pg_ctl("start", "-w")

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: object) -> None:
        done = subprocess.run(
            [*self.as_user, *map(str, command)], capture_output=True, text=True, timeout=120
        )
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {done.stderr or done.stdout}")

    def pg_ctl(self, action: str, *extra: str) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        self._run(
            PG_BIN / "pg_ctl", action, "-D", self.data, "-l", self.folder / "postgres.log",
            "-o", options, *extra,
        )  # fmt: skip

    def stop(self) -> None:
        self.pg_ctl("stop", "-m", "immediate")


def _submissions(database: Database, settings: Settings, exercise_id: int, count: int) -> list[int]:
    ids = []
    with database.session() as session:
        exercise = session.get(Exercise, exercise_id)
        assert exercise is not None
        for _ in range(count):
            student = User(email=f"restart-{secrets.token_hex(6)}@example.edu", name="Student")
            session.add(student)
            session.flush()
            ids.append(
                submit(session, settings, student, exercise, "search.py", CORRECT).runs[0].id
            )
    return ids


def _unfinished(database: Database, run_ids: list[int]) -> int | None:
    """Runs not yet finished; None while the database cannot be read."""
    try:
        with database.session() as session:
            return session.scalar(
                select(func.count())
                .select_from(GradingRun)
                .where(
                    GradingRun.id.in_(run_ids),
                    GradingRun.state.in_([RunState.QUEUED, RunState.RUNNING]),
                )
            )
    except OperationalError:
        return None


@dataclass
class Result:
    """What one scenario measured."""

    back: float
    """Seconds from the burst until the database answered again."""
    took: float
    """Seconds from the burst until every run was finished."""
    left: int | None
    verdicts: Counter[str | None]
    claims: Counter[int]


def scenario(
    name: str,
    cluster: Cluster,
    database: Database,
    settings: Settings,
    exercise_id: int,
    args: argparse.Namespace,
) -> Result:
    run_ids = _submissions(database, settings, exercise_id, args.burst)
    began = time.monotonic()
    Queue(settings, database).send(GRADE_TASK, run_ids)
    time.sleep(args.after)
    if name == "none":
        pass
    elif name == "restart":
        cluster.pg_ctl("restart", "-m", "fast", "-w")
    else:
        cluster.pg_ctl("stop", "-m", "fast", "-w")
        time.sleep(args.down)
        cluster.pg_ctl("start", "-w")
    back = time.monotonic() - began
    while (left := _unfinished(database, run_ids)) != 0:
        if time.monotonic() - began > args.timeout:
            break
        time.sleep(0.2)
    took = time.monotonic() - began
    with database.session() as session:
        rows = session.execute(
            select(GradingRun.verdict, GradingRun.claims).where(GradingRun.id.in_(run_ids))
        ).all()
    return Result(
        back,
        took,
        left,
        Counter(verdict for verdict, _ in rows),
        Counter(claims for _, claims in rows),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--burst", type=int, default=40, help="submissions sent at once")
    parser.add_argument("--after", type=float, default=0.5, help="seconds before the restart")
    parser.add_argument("--down", type=float, default=10.0, help="seconds of the outage")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds to wait at most")
    args = parser.parse_args()
    redis_url = os.environ.get("GRADER_BENCH_REDIS_URL", "redis://127.0.0.1:6379/11")
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    folder = Path(tempfile.mkdtemp(prefix="db-restart-"))
    (folder / "pg").mkdir()
    cluster = Cluster(folder / "pg")
    results: dict[str, Result] = {}
    workers = None
    try:
        upgrade(cluster.url)
        settings = Settings(
            env="development",
            instance_dir=folder,
            database_url=cluster.url,
            redis_url=redis_url,
            submission_min_gap_seconds=0,
            submissions_per_hour=1_000_000,
        )
        database = Database(cluster.url)
        exercise_id = library_exercise(database, settings, "Restart", SLUG)
        workers = ServiceWorkers(settings, folder).start()
        for name in ("none", "restart", "outage"):
            results[name] = scenario(name, cluster, database, settings, exercise_id, args)
        database.engine.dispose()
    finally:
        if workers is not None:
            workers.stop()
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(f"{args.burst} submissions sent at once; the database goes away {args.after:g} s later")
    timeout = settings.run_timeout_seconds
    for name, result in results.items():
        what = "a restart (pg_ctl restart -m fast)"
        if name == "none":
            print(
                f"baseline, the database staying up: every run finished {result.took:.1f} s "
                f"after the burst; verdicts {dict(result.verdicts)}"
            )
            continue
        if name == "outage":
            what = f"an outage of {args.down:g} s"
        unfinished = f" ({result.left} still unfinished at the timeout)" if result.left else ""
        print(
            f"{what}: back after {result.back:.1f} s; every run finished {result.took:.1f} s "
            f"after the burst{unfinished}; verdicts {dict(result.verdicts)}; claims per "
            f"run {dict(sorted(result.claims.items()))}"
        )
        print(
            f"  side by side: a run whose message was taken while the database was away "
            f"waited for the reaper: {timeout} s (the run timeout) + up to "
            f"{settings.reaper_interval_seconds} s; here {result.took:.1f} s "
            f"({timeout / result.took:.0f} times less)"
        )


if __name__ == "__main__":
    main()
