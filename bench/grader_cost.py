"""What one submission costs the grader itself (the trusted side), not the student's process.

A submission of ``aima-fig5.2-alphabeta`` is run with ``run_sandboxed_trees`` on the
exercise's public trees, as the worker runs it (exercise loaded with ``load_exercise``,
each tree's call made with ``entry_spec``), for several submissions side by side:

- a correct alpha-beta (``exercises/implementations/alphabeta/correct_fail_soft.py``);
- a note flood: the same search after 2,000 forged call notes carrying fractions of
  4,000-digit integers (issue 14: such notes once cost the grader minutes of CPU time);
- a note flood of the longest values an honest child sends (two 1,024-bit integers and an
  80-character shown text), as many as the bounds let through;
- an infinite loop, and a sleep (each held until a limit ends it).

For each: the grader's CPU time (the serving thread's and the whole process's, from the
kernel's exact clocks: ``getrusage`` splits the same time by clock ticks and is off by
milliseconds), the wall time, the student's CPU time, and the grader's memory: the peak of
its Python allocations during the run (``tracemalloc``, in one extra run: tracing slows
the others) and how much the process's peak resident size (``ru_maxrss``) grew over all
of the submission's runs. Medians of ``--repeat`` runs.

Usage: .venv/bin/python bench/grader_cost.py [--repeat 3] [--copies 1]
(``--copies N`` grades the public trees N times over, as a submission with more trees.)
Must run as root (the sandbox refuses to run students' code unconfined).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

from reference.exercises.loader import load_exercise
from worker.harness.local import entry_spec
from worker.sandbox import ForkServer, SandboxOptions, run_sandboxed_trees

ROOT = Path(__file__).resolve().parents[1]
EXERCISE = ROOT / "exercises" / "aima-fig5.2-alphabeta"
CORRECT = (ROOT / "exercises/implementations/alphabeta/correct_fail_soft.py").read_text()

FLOOD = """
import os

def _flood(game, state):
    line = b"Cmax_value\\t" + state._token.encode() + b"\\t" + {field!r} + b"\\t" + {field!r}
    line += b"\\t\\n"
    for number in range({notes} // {per_message}):
        body = line * {per_message}
        os.write(4, len(body).to_bytes(4, "little") + body)
        game.actions(state)

_flooded = []
"""


def flooding(field: bytes, notes: int, per_message: int) -> str:
    """The correct search, after ``notes`` forged call notes of its root, alpha and beta
    both ``field``, ``per_message`` notes to a message (a game call after each)."""
    flood = FLOOD.format(field=field, notes=notes, per_message=per_message)
    start = "def max_value(game, state, alpha, beta):\n"
    first = (
        start + "    if not _flooded:\n        _flooded.append(True)\n        _flood(game, state)\n"
    )
    return flood + CORRECT.replace(start, first, 1)


def value_field(value: object) -> bytes:
    """A note's value field carrying ``value`` as JSON."""
    return b"j" + json.dumps(value).encode()


HUGE = value_field([[10**3999 + 1, 10**3999 + 3], None, "x"])
LONGEST = value_field([[-(2**1024 - 1), 2**1024 - 3], None, "\U0001f600" * 80])
LOOP = CORRECT.replace(
    "def max_value(game, state, alpha, beta):\n",
    "def max_value(game, state, alpha, beta):\n    while True:\n        pass\n",
    1,
)
SLEEP = CORRECT.replace(
    "def max_value(game, state, alpha, beta):\n",
    "def max_value(game, state, alpha, beta):\n    import time\n    time.sleep(1000)\n",
    1,
)
SUBMISSIONS = {
    "correct alpha-beta": CORRECT,
    "note flood (4,000-digit fractions)": flooding(HUGE, 2000, 3),
    "note flood (longest honest values)": flooding(LONGEST, 100_000, 20),
    "infinite loop": LOOP,
    "sleep": SLEEP,
}


@dataclass(frozen=True, slots=True)
class Cost:
    thread_cpu: float
    process_cpu: float
    wall: float
    student_cpu: float
    verdicts: str


def grade_once(source: str, copies: int, server: ForkServer) -> Cost:
    """One submission on the exercise's public trees (``copies`` times over)."""
    exercise = load_exercise(EXERCISE)
    runs = [
        (
            entry.tree,
            entry_spec(
                exercise.algorithm, exercise.entry_points, entry.tree, exercise.options.depth_limit
            ),
        )
        for entry in exercise.trees
    ] * copies
    options = SandboxOptions(forkserver=server)
    thread, process, wall = time.thread_time(), time.process_time(), time.monotonic()
    records = run_sandboxed_trees(runs, source, "submission.py", exercise.limits, options=options)
    return Cost(
        time.thread_time() - thread,
        time.process_time() - process,
        time.monotonic() - wall,
        sum(record.usage.cpu_ms for record in records) / 1000,
        ", ".join(str(record.outcome.verdict) for record in records),
    )


def peak_allocated(source: str, copies: int, server: ForkServer) -> int:
    """The peak of the grader's traced allocations over one submission, in bytes."""
    tracemalloc.start()
    try:
        grade_once(source, copies, server)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--copies", type=int, default=1)
    args = parser.parse_args()
    header = (
        f"{'submission':36} {'grader thread CPU':>17} {'grader CPU':>11} {'wall':>9} "
        f"{'student CPU':>11} {'grader peak':>11} {'maxrss +':>9}  verdicts"
    )
    print(f"aima-fig5.2-alphabeta, public trees x {args.copies}, medians of {args.repeat} runs")
    print(header)
    with ForkServer() as server:
        grade_once(CORRECT, 1, server)  # warm both sides up
        for name, source in SUBMISSIONS.items():
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            costs = [grade_once(source, args.copies, server) for _ in range(args.repeat)]
            grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
            peak = peak_allocated(source, args.copies, server)
            print(
                f"{name:36} "
                f"{statistics.median(c.thread_cpu for c in costs) * 1e3:14.1f} ms "
                f"{statistics.median(c.process_cpu for c in costs) * 1e3:8.1f} ms "
                f"{statistics.median(c.wall for c in costs) * 1e3:6.0f} ms "
                f"{statistics.median(c.student_cpu for c in costs) * 1e3:8.0f} ms "
                f"{peak / 2**20:8.1f} MB {grown / 1024:6.1f} MB  {costs[-1].verdicts}"
            )


if __name__ == "__main__":
    main()
