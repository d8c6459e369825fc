"""The Celery workers as ``scripts/run.sh`` starts them, for the benches that measure the
service on its own topology: one worker per queue, the slow lane at a lower priority; and
what those benches share to set up (a free port, a course of the library)."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from sqlalchemy import select

from grader.config import Settings
from grader.db import Database
from grader.models import Course, Exercise
from grader.services.exercise_store import import_library

ROOT = Path(__file__).resolve().parents[1]
CPUS = os.cpu_count() or 1
FAST_SLOTS = int(os.environ.get("GRADER_FAST_LANE_SLOTS") or 4 * CPUS)
SLOW_SLOTS = int(os.environ.get("GRADER_SLOW_LANE_SLOTS") or CPUS)
WORKERS = (
    # name, queues, extra arguments: as scripts/run.sh starts them
    ("grading", "grading", ["--concurrency", str(FAST_SLOTS), "-O", "fair"]),
    ("grading-slow", "grading-slow", ["--concurrency", str(SLOW_SLOTS)]),
    ("callbacks", "callbacks", ["--pool", "threads", "--concurrency", "8"]),
    ("maintenance", "maintenance", ["--concurrency", "1", "-B"]),
)
SLOW = "grading-slow"


class ServiceWorkers:
    """The four workers on ``settings``' database and broker, their logs in ``folder``."""

    def __init__(self, settings: Settings, folder: Path) -> None:
        self.settings = settings
        self.folder = folder
        self.processes: list[subprocess.Popen[bytes]] = []
        self.spawned: Counter[str] = Counter()

    def start(self, ready_within: float = 60.0) -> ServiceWorkers:
        for name, queues, extra in WORKERS:
            self.processes.append(self.spawn(name, queues, extra))
        self.wait_ready([name for name, *_ in WORKERS], ready_within)
        return self

    def spawn(self, name: str, queues: str, extra: list[str]) -> subprocess.Popen[bytes]:
        """One worker, as run.sh starts it (its log appended to ``<name>.log``)."""
        self.spawned[name] += 1
        env = dict(
            os.environ,
            GRADER_ENV="development",
            GRADER_INSTANCE_DIR=str(self.folder),
            GRADER_DATABASE_URL=self.settings.database_url,
            GRADER_REDIS_URL=self.settings.redis_url,
        )
        celery = str(Path(sys.executable).parent / "celery")
        command = [celery, "-A", "worker.celery_app", "worker", "-Q", queues, "--hostname",
                   f"{name}@%h", "--loglevel", "INFO", "--without-gossip", *extra]  # fmt: skip
        if "-B" in extra:
            command += ["--schedule", str(self.folder / "beat-schedule")]
        if name == SLOW:
            command = ["nice", "-n", "10", *command]
        with (self.folder / f"{name}.log").open("ab") as log:
            process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        if name == SLOW:
            _nice_session(process.pid)
        return process

    def restart(self, name: str) -> None:
        """Start worker ``name`` again (its processes killed first), as run.sh does when a
        worker exits."""
        index = next(i for i, (n, *_) in enumerate(WORKERS) if n == name)
        old = self.processes[index]
        with contextlib.suppress(ProcessLookupError):
            os.killpg(old.pid, signal.SIGKILL)
        old.wait(10)
        _, queues, extra = WORKERS[index]
        self.processes[index] = self.spawn(name, queues, extra)

    def wait_ready(self, names: list[str], within: float = 60.0) -> None:
        """Until each worker of ``names`` has said it is ready, as often as it was started."""
        deadline = time.monotonic() + within
        while not all((self.folder / f"{n}.log").read_bytes().count(b"ready.") >= self.spawned[n]
                      for n in names):  # fmt: skip
            if time.monotonic() > deadline:
                raise RuntimeError(f"the workers did not start; see the logs in {self.folder}")
            time.sleep(0.2)

    def stop(self) -> None:
        stop_groups(self.processes, grace=30.0)


def stop_groups(processes: list[subprocess.Popen[bytes]], grace: float) -> None:
    """SIGTERM to each process's group, SIGKILL to those still there after ``grace`` s."""
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)


def _nice_session(pid: int) -> None:
    """Lower the priority of ``pid``'s whole session: with the kernel's autogroups, nice
    counts only within a session, and each worker here has one of its own (run.sh starts
    all of them in its session, where ``nice`` is enough)."""
    try:
        Path(f"/proc/{pid}/autogroup").write_text("10")
    except OSError as error:
        print(f"the slow lane's session keeps its priority: {error}", file=sys.stderr)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def library_exercise(database: Database, settings: Settings, title: str, slug: str) -> int:
    """A new course ``title`` with the shipped exercises; the id of its exercise ``slug``."""
    with database.session() as session:
        course = Course(title=title, join_code=secrets.token_hex(4))
        session.add(course)
        session.flush()
        import_library(session, settings, course)
        found: int = session.scalars(
            select(Exercise.id).where(Exercise.course_id == course.id, Exercise.slug == slug)
        ).one()
        return found
