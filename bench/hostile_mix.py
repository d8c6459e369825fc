"""The fast lane under a hostile mix: correct submissions behind hostile ones, on the
service's own topology (Redis broker, PostgreSQL, the Celery workers as scripts/run.sh and
docker-compose.yml start them: fast lane, slow lane, callbacks, maintenance).

Three phases in one run, each on fresh students (one submission each):
- alone (the baseline): ``--correct`` correct submissions arriving at ``--rate`` per second;
- burst: ``--hostile`` correct submissions from as many students sent at once, then the
  same paced correct submissions, queued behind them;
- mixed: ``--hostile`` hostile submissions from as many students sent at once (infinite
  loops, sleeps, memory bombs and output bombs in turn), then the same paced correct ones.
For the paced correct submissions of each phase, the submit-to-graded latency (from the
submission's ``created_at`` to its run's ``finished_at``, both stamped by the service): p50,
p95, the lanes they were graded in, and the ratios mixed/alone (target: p95 at most 2) and
mixed/burst (what the hostile runs cost the fast lane beyond as many correct ones: the
part of the wait that is hostility, not the burst's size). Also where each hostile kind
ended (verdict and lane) and how long it took.

``--burners N`` runs every phase beside N processes spinning on the CPU (N = 6 makes a load
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
BURST = {"correct": CORRECT}
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
    bench: Service, name: str, correct: int, ahead: int, rate: float, sources: dict[str, str]
) -> dict[str, list[int]]:
    """``ahead`` submissions of ``sources`` (each kind in turn) sent at once, then the
    correct ones at ``rate`` per second (kind ``paced``); the run ids of each kind."""
    runs: dict[str, list[int]] = {"paced": [], **{kind: [] for kind in sources}}
    kinds = list(sources)
    for number in range(ahead):
        kind = kinds[number % len(kinds)]
        runs[kind].append(bench.send(f"{name}-{kind}-{number}@example.edu", sources[kind])[0])
    began = time.monotonic()
    for number in range(correct):
        time.sleep(max(0.0, began + number / rate - time.monotonic()))
        runs["paced"].append(bench.send(f"{name}-paced-{number}@example.edu", CORRECT)[0])
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
        alone_runs = phase(bench, "alone", args.correct, 0, args.rate, {})
        alone = finished(bench.database, alone_runs["paced"], args.timeout)
        loads.append(os.getloadavg()[0])
        burst_runs = phase(bench, "burst", args.correct, args.hostile, args.rate, BURST)
        burst = finished(bench.database, burst_runs["paced"], args.timeout)
        finished(bench.database, burst_runs["correct"], args.timeout)
        loads.append(os.getloadavg()[0])
        mixed_runs = phase(bench, "mixed", args.correct, args.hostile, args.rate, HOSTILE)
        mixed = finished(bench.database, mixed_runs["paced"], args.timeout)
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
    print(_line(f"behind {args.hostile} correct ones", burst, args.correct))
    print(_line("behind hostile", mixed, args.correct))
    (a50, a95), (b50, b95), (m50, m95) = p50_p95(alone), p50_p95(burst), p50_p95(mixed)
    print(f"ratio behind hostile / alone: p50 {m50 / a50:.2f}, p95 {m95 / a95:.2f} (target <= 2)")
    print(
        f"ratio behind hostile / behind as many correct ones: p50 {m50 / b50:.2f}, "
        f"p95 {m95 / b95:.2f} (what hostility itself costs the fast lane)"
    )
    slow = sum(timing.lane == "slow" for timing in alone + burst + mixed)
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
