"""Fair grading under a deadline rush: correct submissions among hostile ones, on the
service's own topology (Redis broker, PostgreSQL, the Celery workers as scripts/run.sh and
docker-compose.yml start them: fast lane, slow lane, callbacks, maintenance).

Two phases in one run, each on fresh students (one submission each):
- alone: ``--correct`` correct submissions arriving at ``--rate`` per second;
- mixed: the same correct submissions at the same rate, with ``--each`` infinite loops,
  ``--each`` memory bombs and ``--each`` fork bombs sent in between them (interleaved).
For the correct submissions of each phase, the submit-to-graded latency (from the
submission's ``created_at`` to its run's ``finished_at``, both stamped by the service):
p50, p95, and the ratio mixed/alone (target: at most 2). Also where each hostile kind
ended (verdict and lane) and how long it took.

Submissions are made through the services layer (``submit`` then ``Queue.send``, as the web
app does after its commit). Usage:
  .venv/bin/python bench/hostile_mix.py [--correct 100] [--each 20] [--rate 2] [--keep-logs]
Needs PostgreSQL and Redis (GRADER_TEST_DATABASE_URL / GRADER_BENCH_REDIS_URL, else local;
the Redis database is emptied).
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import statistics
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url
from topology import ServiceWorkers

from grader.config import Settings
from grader.db import Database
from grader.migrate import upgrade
from grader.models import Course, Exercise, GradingRun, RunState, Submission, User
from grader.services.exercise_store import import_library
from grader.services.queue import Queue
from grader.services.submissions import submit
from grader.services.tasks import GRADE_TASK

ROOT = Path(__file__).resolve().parents[1]
SLUG = "aima-fig5.2-alphabeta"
CORRECT = (ROOT / "exercises/implementations/alphabeta/correct_fail_hard.py").read_text()
_MIN = (
    "\n\ndef min_value(game, state, alpha, beta):\n    return max_value(game, state, alpha, beta)\n"
)
HOSTILE = {
    "loop": "def max_value(game, state, alpha, beta):\n    while True:\n        pass\n" + _MIN,
    "memory": "def max_value(game, state, alpha, beta):\n    hoard = []\n    while True:\n"
    "        hoard.append(bytearray(1 << 20))\n" + _MIN,
    "fork": "import os\n\n\ndef max_value(game, state, alpha, beta):\n    while True:\n"
    "        try:\n            os.fork()\n        except OSError:\n            pass\n" + _MIN,
}


class Service:
    """The workers on a fresh PostgreSQL schema and Redis database."""

    def __init__(self, database_url: str, redis_url: str, folder: Path) -> None:
        self.schema = f"grader_hostile_{secrets.token_hex(4)}"
        self.admin = create_engine(database_url)
        with self.admin.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{self.schema}"'))
        url = make_url(database_url).update_query_dict({"options": f"-csearch_path={self.schema}"})
        self.url = url.render_as_string(hide_password=False)
        upgrade(self.url)
        self.settings = Settings(
            env="development",
            instance_dir=folder,
            database_url=self.url,
            redis_url=redis_url,
            submission_min_gap_seconds=0,
            submissions_per_hour=1_000_000,
        )
        self.workers = ServiceWorkers(self.settings, folder)

    def start(self) -> None:
        self.workers.start()

    def stop(self) -> None:
        self.workers.stop()
        with self.admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{self.schema}" CASCADE'))
        self.admin.dispose()


def _setup(database: Database, settings: Settings) -> int:
    with database.session() as session:
        course = Course(title="Hostile mix", join_code=secrets.token_hex(4))
        session.add(course)
        session.flush()
        import_library(session, settings, course)
        return session.scalars(
            select(Exercise.id).where(Exercise.course_id == course.id, Exercise.slug == SLUG)
        ).one()


def _send(database: Database, queue: Queue, exercise_id: int, kind: str, source: str) -> int:
    """A new student's submission, committed and sent: its run's id."""
    with database.session() as session:
        student = User(email=f"{kind}-{secrets.token_hex(6)}@example.edu", name=kind)
        session.add(student)
        session.flush()
        exercise = session.get(Exercise, exercise_id)
        assert exercise is not None
        run_id = submit(session, queue.settings, student, exercise, "search.py", source).runs[0].id
    queue.send(GRADE_TASK, [run_id])
    return run_id


def phase(
    database: Database, queue: Queue, exercise_id: int, correct: int, each: int, rate: float
) -> dict[str, list[int]]:
    """Send the phase's submissions (correct ones at ``rate`` per second, the hostile ones
    spread evenly between them); the run ids of each kind."""
    plan = ["correct"] * correct
    hostile = [kind for _ in range(each) for kind in HOSTILE]
    # Spread the hostile submissions evenly among the correct ones.
    for index, kind in enumerate(hostile):
        plan.insert(round((index + 0.5) * len(plan) / len(hostile)) if plan else 0, kind)
    runs: dict[str, list[int]] = {"correct": [], **{kind: [] for kind in HOSTILE}}
    began = time.monotonic()
    sent_correct = 0
    for kind in plan:
        if kind == "correct":
            # The correct ones keep their schedule whatever is sent in between.
            time.sleep(max(0.0, began + sent_correct / rate - time.monotonic()))
            sent_correct += 1
        runs[kind].append(_send(database, queue, exercise_id, kind, HOSTILE.get(kind, CORRECT)))
    return runs


def _finished(database: Database, run_ids: list[int], timeout: float) -> list[tuple]:  # type: ignore[type-arg]
    """(verdict, lane, seconds from submission to graded, seconds from submission to the
    last start) of each finished run, after
    waiting up to ``timeout`` for them all."""
    deadline = time.monotonic() + timeout
    while True:
        with database.session() as session:
            rows = session.execute(
                select(
                    GradingRun.state,
                    GradingRun.verdict,
                    GradingRun.lane,
                    Submission.created_at,
                    GradingRun.started_at,
                    GradingRun.finished_at,
                )
                .join(Submission)
                .where(GradingRun.id.in_(run_ids))
            ).all()
        done = [row for row in rows if row.state in (RunState.GRADED, RunState.ERROR)]
        if len(done) == len(run_ids) or time.monotonic() > deadline:
            return [
                (
                    row.verdict,
                    row.lane,
                    _stamp(row.finished_at) - _stamp(row.created_at),
                    _stamp(row.started_at) - _stamp(row.created_at),
                )
                for row in done
            ]
        time.sleep(0.2)


def _stamp(moment: datetime) -> float:
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _latencies(rows: list[tuple]) -> tuple[float, float]:  # type: ignore[type-arg]
    seconds = [row[2] for row in rows]
    return statistics.median(seconds), _percentile(seconds, 0.95)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--correct", type=int, default=100, help="correct submissions per phase")
    parser.add_argument("--each", type=int, default=20, help="submissions of each hostile kind")
    parser.add_argument("--rate", type=float, default=2.0, help="correct submissions per second")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds to wait per phase")
    parser.add_argument("--keep-logs", action="store_true", help="keep the workers' logs")
    args = parser.parse_args()
    database_url = os.environ.get(
        "GRADER_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
    )
    redis_url = os.environ.get("GRADER_BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    folder = tempfile.mkdtemp(prefix="hostile-mix-")
    if True:
        service = Service(database_url, redis_url, Path(folder))
        database = Database(service.url)
        try:
            exercise_id = _setup(database, service.settings)
            service.start()
            queue = Queue(service.settings, database)
            # One submission first, so that each grading process has started its sandbox.
            warm = [_send(database, queue, exercise_id, "warm", CORRECT) for _ in range(4)]
            _finished(database, warm, 60)
            alone_runs = phase(database, queue, exercise_id, args.correct, 0, args.rate)
            alone = _finished(database, alone_runs["correct"], args.timeout)
            mixed_runs = phase(database, queue, exercise_id, args.correct, args.each, args.rate)
            mixed = _finished(database, mixed_runs["correct"], args.timeout)
            hostile = {
                kind: _finished(database, mixed_runs[kind], args.timeout) for kind in HOSTILE
            }
        finally:
            service.stop()
            database.engine.dispose()
            if args.keep_logs:
                print(f"the workers' logs are in {folder}")
            else:
                shutil.rmtree(folder)
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(
        f"{args.correct} correct submissions at {args.rate:g}/s; mixed with {args.each} each of "
        f"{', '.join(HOSTILE)} (interleaved)"
    )
    for name, rows in (("alone", alone), ("mixed", mixed)):
        p50, p95 = _latencies(rows)
        lanes = Counter(row[1] for row in rows)
        verdicts = Counter(row[0] for row in rows)
        wait = statistics.median(row[3] for row in rows)
        print(
            f"correct, {name}: {len(rows)}/{args.correct} graded, submit-to-graded p50 "
            f"{p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms (of which waiting: p50 "
            f"{wait * 1000:.0f} ms; lanes {dict(lanes)}, verdicts {dict(verdicts)})"
        )
    (a50, a95), (m50, m95) = _latencies(alone), _latencies(mixed)
    print(f"ratio mixed/alone: p50 {m50 / a50:.2f}, p95 {m95 / a95:.2f} (target <= 2)")
    for kind, rows in hostile.items():
        if not rows:
            print(f"{kind}: none graded within {args.timeout:g} s")
            continue
        p50, p95 = _latencies(rows)
        print(
            f"{kind}: {len(rows)}/{args.each} graded, p50 {p50:.1f} s, p95 {p95:.1f} s, "
            f"verdicts {dict(Counter(row[0] for row in rows))}, lanes "
            f"{dict(Counter(row[1] for row in rows))}"
        )


if __name__ == "__main__":
    main()
