"""How long the service takes to recover from a fault, beside the same burst without one
and beside the reaper's timeout (what a lost run waited for before).

The service's own topology with its default timings (the workers as scripts/run.sh starts
them: fast and slow grading lanes, callbacks, maintenance with the beat; heartbeats every
10 s, a worker gone after 40 s, the reaper every 15 s, ``GRADER_RUN_TIMEOUT_SECONDS`` 900),
on PostgreSQL (a schema of its own on the test server) and a Redis server of its own (on
a free port, without persistence, so that it can be restarted). Scenarios, each on a burst
of ``--burst`` submissions sent at once:
- ``none``: nothing fails (the baseline);
- ``worker-kill``: the fast lane's main process is killed with -9 while it grades (its
  pool processes left to themselves), and started again two seconds later, as run.sh does;
- ``redis-restart``: the grading workers are stopped, the burst is sent, Redis is shut
  down without saving (its messages lost) and started again, and so are the workers.
Figures: seconds from the fault to the last run graded (from the burst for the baseline),
claims per run, and whether every run was graded exactly once (one set of tree rows).

Usage: .venv/bin/python bench/recovery.py [--burst 20]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shutil
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import redis
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url
from topology import WORKERS, ServiceWorkers, free_port, library_exercise

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Exercise, GradingRun, Membership, RunState, TreeResult, User
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK

ROOT = Path(__file__).resolve().parents[1]
SLUG = "aima-fig5.2-alphabeta"
CORRECT = (ROOT / "exercises/implementations/alphabeta/correct_fail_hard.py").read_text()
SPINNING = (
    "import time\n_t = time.perf_counter()\nwhile time.perf_counter() - _t < 0.05:\n    pass\n"
)
"""A correct search that first spends 0.05 s of CPU on each tree: it stays in the fast lane
and keeps its worker busy long enough to be killed mid-grading."""
TIMEOUT = 300.0


class RedisServer:
    """redis-server on a free port, keeping nothing on disk."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis(port=self.port)
        for _ in range(200):
            try:
                client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def shutdown_nosave(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(redis.ConnectionError):  # it closes the connection as it goes
            redis.Redis(port=self.port).shutdown(nosave=True)
        self.process.wait(10)
        self.process = None


@dataclass
class Result:
    took: float
    """Seconds from the fault (the burst, for the baseline) to the last run finished."""
    left: int
    claims: Counter[int]
    verdicts: Counter[str | None]
    tree_sets: Counter[int]
    """Runs by their count of tree rows: 9 each when graded once."""


def _burst(
    database: Database, settings: Settings, exercise_id: int, count: int, source: str
) -> list[int]:
    ids = []
    with database.session() as session:
        exercise = session.get(Exercise, exercise_id)
        assert exercise is not None
        course_id = exercise.course_id
        for _ in range(count):
            user = User(email=f"r-{secrets.token_hex(6)}@example.edu", name="R")
            session.add(user)
            session.flush()
            session.add(Membership(user_id=user.id, course_id=course_id))
            ids.append(submit(session, settings, user, exercise, "a.py", source).runs[0])
        session.flush()
        run_ids = [run.id for run in ids]
    return run_ids


def _wait(database: Database, run_ids: list[int], since: float) -> Result:
    while True:
        with database.session() as session:
            left = (
                session.scalar(
                    select(func.count()).where(
                        GradingRun.id.in_(run_ids),
                        GradingRun.state.in_([RunState.QUEUED, RunState.RUNNING]),
                    )
                )
                or 0
            )
        if left == 0 or time.monotonic() - since > TIMEOUT:
            break
        time.sleep(0.2)
    took = time.monotonic() - since
    with database.session() as session:
        rows = session.execute(
            select(GradingRun.id, GradingRun.claims, GradingRun.verdict).where(
                GradingRun.id.in_(run_ids)
            )
        ).all()
        trees = dict(
            session.execute(
                select(TreeResult.run_id, func.count())
                .where(TreeResult.run_id.in_(run_ids))
                .group_by(TreeResult.run_id)
            ).all()
        )
    return Result(
        took,
        int(left),
        Counter(claims for _, claims, _ in rows),
        Counter(verdict for _, _, verdict in rows),
        Counter(trees.get(run_id, 0) for run_id, _, _ in rows),
    )


def _main_pid_grading(database: Database, run_ids: list[int]) -> int | None:
    """The main process id of the worker grading one of ``run_ids`` (from the name it
    grades under: ``name@host/pid-token``), once one is."""
    with database.session() as session:
        worker = session.scalar(
            select(GradingRun.worker).where(
                GradingRun.id.in_(run_ids), GradingRun.state == RunState.RUNNING
            )
        )
    if not worker or "/" not in worker:
        return None
    return int(worker.rsplit("/", 1)[1].split("-", 1)[0])


def scenario(
    name: str,
    workers: ServiceWorkers,
    server: RedisServer,
    database: Database,
    settings: Settings,
    exercise_id: int,
    burst: int,
) -> Result:
    grading = [n for n, *_ in WORKERS if n.startswith("grading")]
    if name == "none":
        run_ids = _burst(database, settings, exercise_id, burst, CORRECT)
        began = time.monotonic()
        Queue(settings, database).send(GRADE_TASK, run_ids)
        return _wait(database, run_ids, began)
    if name == "worker-kill":
        run_ids = _burst(database, settings, exercise_id, burst, SPINNING + CORRECT)
        Queue(settings, database).send(GRADE_TASK, run_ids)
        deadline = time.monotonic() + 60
        while (pid := _main_pid_grading(database, run_ids)) is None:
            if time.monotonic() > deadline:
                raise RuntimeError("no run started")
            time.sleep(0.02)
        os.kill(pid, 9)
        began = time.monotonic()
        time.sleep(2)  # run.sh starts an exited worker again two seconds later
        workers.restart("grading")
        return _wait(database, run_ids, began)
    # redis-restart: the burst waits in Redis while the grading workers are stopped.
    for worker in grading:
        index = next(i for i, (n, *_) in enumerate(WORKERS) if n == worker)
        process = workers.processes[index]
        os.killpg(process.pid, 15)
        process.wait(30)
    run_ids = _burst(database, settings, exercise_id, burst, CORRECT)
    Queue(settings, database).send(GRADE_TASK, run_ids)
    server.shutdown_nosave()
    server.start()
    began = time.monotonic()
    for worker in grading:
        workers.restart(worker)
    return _wait(database, run_ids, began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--burst", type=int, default=20, help="submissions per scenario")
    args = parser.parse_args()
    base = (
        os.environ.get("GRADER_TEST_DATABASE_URL")
        or "postgresql+psycopg://postgres@127.0.0.1:5432/test"
    )
    schema = f"recovery_{secrets.token_hex(4)}"
    admin = create_engine(base)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    database_url = url.render_as_string(hide_password=False)
    folder = Path(tempfile.mkdtemp(prefix="recovery-"))
    server = RedisServer()
    workers = None
    results: dict[str, Result] = {}
    try:
        server.start()
        upgrade(database_url)
        settings = Settings(
            env="development",
            instance_dir=folder,
            database_url=database_url,
            redis_url=server.url,
            submission_min_gap_seconds=0,
            submissions_per_hour=1_000_000,
        )
        database = Database(database_url)
        exercise_id = library_exercise(database, settings, "Recovery", SLUG)
        workers = ServiceWorkers(settings, folder).start()
        for name in ("none", "worker-kill", "redis-restart"):
            results[name] = scenario(
                name, workers, server, database, settings, exercise_id, args.burst
            )
        database.engine.dispose()
    finally:
        if workers is not None:
            workers.stop()
        server.shutdown_nosave()
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
        shutil.rmtree(folder, ignore_errors=True)
    timeout = settings.run_timeout_seconds
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(
        f"{args.burst} submissions per scenario; heartbeat {settings.heartbeat_seconds:g} s, "
        f"worker gone after {settings.worker_gone_seconds} s, reaper every "
        f"{settings.reaper_interval_seconds} s, run timeout {timeout} s"
    )
    for name, result in results.items():
        once = set(result.tree_sets) == {9} and not result.left
        print(
            f"{name:14} every run finished {result.took:6.1f} s after "
            f"{'the burst' if name == 'none' else 'the fault'}"
            f"{f' ({result.left} unfinished at {TIMEOUT:.0f} s)' if result.left else ''}; "
            f"verdicts {dict(result.verdicts)}; claims {dict(sorted(result.claims.items()))}; "
            f"graded once each: {'yes' if once else dict(result.tree_sets)}"
        )
        if name != "none":
            print(
                f"{'':14} side by side: the reaper's timeout a lost run waited for before, "
                f"{timeout} s + up to {settings.reaper_interval_seconds} s "
                f"({timeout / result.took:.0f} times as long)"
            )


if __name__ == "__main__":
    main()
