"""The fast lane under a hostile mix: correct submissions behind hostile ones, on the
service's own topology (Redis broker, PostgreSQL, the Celery workers as scripts/run.sh and
docker-compose.yml start them: fast lane, slow lane, callbacks, maintenance).

Two phases in one run, each on fresh students (one submission each):
- alone (the baseline): ``--correct`` correct submissions arriving at ``--rate`` per second;
- mixed: ``--hostile`` hostile submissions from as many students sent at once (infinite
  loops, sleeps, memory bombs and output bombs in turn), then the same correct submissions
  at the same rate, queued behind them.
For the correct submissions of each phase, the submit-to-graded latency (from the
submission's ``created_at`` to its run's ``finished_at``, both stamped by the service): p50,
p95, the lanes they were graded in, and the ratio mixed/alone (target: p95 at most 2). Also
where each hostile kind ended (verdict and lane) and how long it took.

``--burners N`` runs both phases beside N processes spinning on the CPU (N = 6 makes a load
average of about 8 on two cores): no correct submission may then be graded in the slow lane.

Usage:
  .venv/bin/python bench/hostile_mix.py [--correct 40] [--hostile 60] [--rate 2] [--burners 0]
Needs PostgreSQL and Redis (GRADER_TEST_DATABASE_URL / GRADER_BENCH_REDIS_URL, else local;
the Redis database is emptied).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from service_runs import LIBRARY, Service, Timing, burners, finished, p50_p95, service
from topology import FAST_SLOTS

SLUG = "aima-fig5.2-alphabeta"
CORRECT = (LIBRARY / "alphabeta" / "correct_fail_hard.py").read_text()
_MIN = (
    "\n\ndef min_value(game, state, alpha, beta):\n    return max_value(game, state, alpha, beta)\n"
)
HOSTILE = {
    "loop": "def max_value(game, state, alpha, beta):\n    while True:\n        pass\n" + _MIN,
    "sleep": "import time\n\n\ndef max_value(game, state, alpha, beta):\n"
    "    time.sleep(60)\n    return 0\n" + _MIN,
    "memory": "def max_value(game, state, alpha, beta):\n    hoard = []\n    while True:\n"
    "        hoard.append(bytearray(1 << 20))\n" + _MIN,
    "output": "def max_value(game, state, alpha, beta):\n    while True:\n"
    "        print('x' * 10000)\n" + _MIN,
}


def phase(
    bench: Service, name: str, correct: int, hostile: int, rate: float
) -> dict[str, list[int]]:
    """The hostile submissions sent at once, then the correct ones at ``rate`` per second;
    the run ids of each kind."""
    runs: dict[str, list[int]] = {"correct": [], **{kind: [] for kind in HOSTILE}}
    kinds = list(HOSTILE)
    for number in range(hostile):
        kind = kinds[number % len(kinds)]
        runs[kind].append(bench.send(f"{name}-{kind}-{number}@example.edu", HOSTILE[kind])[0])
    began = time.monotonic()
    for number in range(correct):
        time.sleep(max(0.0, began + number / rate - time.monotonic()))
        runs["correct"].append(bench.send(f"{name}-correct-{number}@example.edu", CORRECT)[0])
    return runs


def _line(name: str, timings: list[Timing], expected: int) -> str:
    p50, p95 = p50_p95(timings)
    wait = statistics.median(timing.waited for timing in timings)
    return (
        f"correct, {name}: {len(timings)}/{expected} graded, submit-to-graded p50 "
        f"{p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms (waiting: p50 {wait * 1000:.0f} ms; "
        f"lanes {dict(Counter(t.lane for t in timings))}, "
        f"verdicts {dict(Counter(t.verdict for t in timings))})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--correct", type=int, default=40, help="correct submissions per phase")
    parser.add_argument("--hostile", type=int, default=60, help="hostile submissions, mixed")
    parser.add_argument("--rate", type=float, default=2.0, help="correct submissions per second")
    parser.add_argument("--burners", type=int, default=0, help="CPU burners beside the service")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds to wait per phase")
    parser.add_argument("--keep-logs", action="store_true", help="keep the workers' logs")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="hostile-mix-"))
    loads = []
    with service(folder, SLUG, "Hostile mix") as bench, burners(args.burners):
        # Two submissions per fast slot first: each grading process has started its sandbox.
        warm = [bench.send(f"warm-{n}@example.edu", CORRECT)[0] for n in range(2 * FAST_SLOTS)]
        finished(bench.database, warm, 60)
        alone_runs = phase(bench, "alone", args.correct, 0, args.rate)
        alone = finished(bench.database, alone_runs["correct"], args.timeout)
        loads.append(os.getloadavg()[0])
        mixed_runs = phase(bench, "mixed", args.correct, args.hostile, args.rate)
        mixed = finished(bench.database, mixed_runs["correct"], args.timeout)
        loads.append(os.getloadavg()[0])
        hostile = {
            kind: finished(bench.database, mixed_runs[kind], args.timeout) for kind in HOSTILE
        }
    if args.keep_logs:
        print(f"the workers' logs are in {folder}")
    else:
        with contextlib.suppress(OSError):
            shutil.rmtree(folder)
    print(
        f"machine: {os.cpu_count()} cores, {args.burners} CPU burners, load average "
        f"{' / '.join(f'{load:.1f}' for load in loads)} (after each phase)"
    )
    print(
        f"{args.correct} correct submissions at {args.rate:g}/s, alone and behind "
        f"{args.hostile} hostile ones sent at once ({', '.join(HOSTILE)} in turn)"
    )
    print(_line("alone (baseline)", alone, args.correct))
    print(_line("behind hostile", mixed, args.correct))
    (a50, a95), (m50, m95) = p50_p95(alone), p50_p95(mixed)
    print(f"ratio behind hostile / alone: p50 {m50 / a50:.2f}, p95 {m95 / a95:.2f} (target <= 2)")
    slow = sum(timing.lane == "slow" for timing in alone + mixed)
    print(f"correct submissions graded in the slow lane: {slow} (target 0)")
    for kind, timings in hostile.items():
        expected = len(mixed_runs[kind])
        if not timings:
            print(f"{kind}: none graded within {args.timeout:g} s")
            continue
        p50, p95 = p50_p95(timings)
        print(
            f"{kind}: {len(timings)}/{expected} graded, p50 {p50:.1f} s, p95 {p95:.1f} s, "
            f"verdicts {dict(Counter(t.verdict for t in timings))}, "
            f"lanes {dict(Counter(t.lane for t in timings))}"
        )


if __name__ == "__main__":
    main()
