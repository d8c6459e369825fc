"""A deadline rush on the service's own topology: ``--submissions`` submissions from
``--students`` students within ``--seconds`` seconds, correct and wrong ones mixed, no
hostile ones. A student submits again a few seconds after their last submission, or at
once (before its feedback): such a run goes to the slow lane while their earlier one is
queued or graded, so that it waits behind other students' first runs.

Two phases in one run, with the same arrival times:
- baseline: every submission from a student of its own (all first submissions);
- rush: the submissions of ``--students`` students, each's second and later ones a few
  seconds after the one before.
For each, the submit-to-graded latency (the service's own stamps) p50 and p95, by lane;
target for the rush: p95 at most 3 times its p50.

Usage: .venv/bin/python bench/rush.py [--submissions 500] [--students 200] [--seconds 60]
       [--burners 0]
Needs PostgreSQL and Redis (GRADER_TEST_DATABASE_URL / GRADER_BENCH_REDIS_URL, else local;
the Redis database is emptied).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

from service_runs import LIBRARY, Service, Timing, burners, finished, p50_p95, service
from topology import FAST_SLOTS

SLUG = "aima-fig5.2-alphabeta"
SOURCES = [
    (LIBRARY / "alphabeta" / name).read_text()
    for name in ("correct_fail_hard.py", "wrong_no_pruning.py", "correct_fail_soft.py",
                 "wrong_alpha_never_updated.py")
]  # fmt: skip


def schedule(submissions: int, students: int, seconds: float, seed: int) -> list[tuple[float, int]]:
    """(time, student) of each submission, in time order: each student's first submission
    at a uniform time, each later one 1 to 5 s after their previous one, or (one time in
    three) within 0.3 s of it: sent again before its feedback came."""
    rng = random.Random(seed)
    counts = [submissions // students + (1 if n < submissions % students else 0)
              for n in range(students)]  # fmt: skip
    plan = []
    for student, count in enumerate(counts):
        moment = rng.uniform(0, seconds - 5 * (count - 1))
        for _ in range(count):
            plan.append((moment, student))
            moment += rng.uniform(0, 0.3) if rng.random() < 1 / 3 else rng.uniform(1, 5)
    return sorted(plan)


def play(bench: Service, name: str, plan: list[tuple[float, int]], own: bool) -> list[int]:
    """Send the submissions of ``plan`` at their times (each from a student of its own when
    ``own``); their run ids."""
    users: dict[int, int] = {}
    runs = []
    began = time.monotonic()
    for number, (moment, student) in enumerate(plan):
        time.sleep(max(0.0, began + moment - time.monotonic()))
        who = number if own else student
        run_id, user_id = bench.send(
            f"{name}-{who}@example.edu", SOURCES[number % len(SOURCES)], users.get(who)
        )
        users[who] = user_id
        runs.append(run_id)
    return runs


def _line(name: str, timings: list[Timing], expected: int) -> str:
    p50, p95 = p50_p95(timings)
    lanes = []
    for lane in ("fast", "slow"):
        of_lane = [timing for timing in timings if timing.lane == lane]
        if of_lane:
            l50, l95 = p50_p95(of_lane)
            lanes.append(f"{lane} {len(of_lane)}: p50 {l50:.2f} s, p95 {l95:.2f} s")
    return (
        f"{name}: {len(timings)}/{expected} graded, p50 {p50:.2f} s, p95 {p95:.2f} s, "
        f"p95/p50 {p95 / p50:.1f}; {'; '.join(lanes)}; "
        f"verdicts {dict(Counter(t.verdict for t in timings))}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--submissions", type=int, default=500)
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--burners", type=int, default=0, help="CPU burners beside the service")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds to wait per phase")
    args = parser.parse_args()
    plan = schedule(args.submissions, args.students, args.seconds, args.seed)
    folder = Path(tempfile.mkdtemp(prefix="rush-"))
    with service(folder, SLUG, "Rush") as bench, burners(args.burners):
        # Two submissions of each source per fast slot first: each grading process has
        # started its sandbox and made what it keeps per exercise.
        warm = [
            bench.send(f"warm-{n}@example.edu", SOURCES[n % len(SOURCES)])[0]
            for n in range(2 * len(SOURCES) * FAST_SLOTS)
        ]
        finished(bench.database, warm, 60)
        base_runs = play(bench, "baseline", plan, own=True)
        base = finished(bench.database, base_runs, args.timeout)
        rush_runs = play(bench, "rush", plan, own=False)
        rush = finished(bench.database, rush_runs, args.timeout)
        load = os.getloadavg()[0]
    shutil.rmtree(folder, ignore_errors=True)
    print(
        f"machine: {os.cpu_count()} cores, {args.burners} CPU burners, load average {load:.1f}; "
        f"{args.submissions} submissions in {args.seconds:g} s"
    )
    print(_line("baseline (one submission per student)", base, len(plan)))
    print(_line(f"rush ({args.students} students)", rush, len(plan)))
    r50, r95 = p50_p95(rush)
    print(f"rush p95 / p50: {r95 / r50:.1f} (target <= 3)")


if __name__ == "__main__":
    main()
