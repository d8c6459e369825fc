"""What recording the calling line of each search-function call costs a grading.

The harness notes, for every call of a student's entry function (``max_value`` ...), the
line of the student's file it was made from, so that the first divergence can point at it
(``EntrySpec.call_lines``). This grades the same submissions with and without it, in
alternation, through the real sandbox (``worker.grading.grade``: public and hidden trees,
judging, the report), and prints each one's median, the medians' ratio, and the same for a
run of a correct minimax on a uniform tree of 5,461 nodes, where the calls are most of the
work: sandboxed (its wall time and the child's CPU time, where the recording is done) and
in process (the harness alone, no round trips: the recording's cost least diluted).

    .venv/bin/python bench/callsite_cost.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reference.exercises import load_catalog  # noqa: E402
from reference.exercises.model import Limits  # noqa: E402
from reference.hidden import DEVELOPMENT_KEY  # noqa: E402
from reference.treefile import parse_compact  # noqa: E402
from worker.grading import grade  # noqa: E402
from worker.harness.local import entry_spec, run_local  # noqa: E402
from worker.sandbox import run_sandboxed  # noqa: E402

EXERCISES = ROOT / "exercises"
LIBRARY = EXERCISES / "implementations"
GRADINGS = (
    ("aima-fig5.2-alphabeta", "alphabeta/correct_fail_soft.py"),
    ("aima-fig5.2-alphabeta", "alphabeta/wrong_alpha_never_updated.py"),
    ("grundy-7-minimax", "minimax/correct_plain.py"),
    ("tictactoe-seed-alphabeta", "alphabeta/correct_fail_soft.py"),
)
LARGE_BRANCHING, LARGE_DEPTH = 4, 6
"""A single run of a correct minimax on a uniform tree this wide and deep (5,461 nodes),
where the search functions' calls are most of the work."""


def _uniform(depth: int, maximizing: bool = True, seed: list[int] | None = None) -> str:
    """A uniform tree in compact notation, with leaves from a fixed sequence."""
    seed = [7] if seed is None else seed
    if depth == 0:
        seed[0] = (seed[0] * 1103515245 + 12345) % 2**31
        return str(seed[0] % 41 - 20)
    children = " ".join(_uniform(depth - 1, not maximizing, seed) for _ in range(LARGE_BRANCHING))
    return f"{'MAX' if maximizing else 'MIN'}[{children}]"


def _grading_ms(slug: str, path: str, call_lines: bool) -> float:
    exercise = load_catalog(EXERCISES).get(slug)
    source = (LIBRARY / path).read_text(encoding="utf-8")
    began = time.perf_counter()
    grade(
        exercise,
        source,
        "submission.py",
        key=DEVELOPMENT_KEY,
        exercises_dir=EXERCISES,
        draw="callsite-bench",
        call_lines=call_lines,
    )
    return (time.perf_counter() - began) * 1000


LARGE_TREE = parse_compact(_uniform(LARGE_DEPTH))


def _local_cpu_ms(call_lines: bool) -> float:
    """CPU time of one in-process run of the harness on the large tree (no sandbox: the
    wrapper's own cost, less diluted by the round trips)."""
    tree = LARGE_TREE
    spec = dataclasses.replace(
        entry_spec("minimax", ("max_value", "min_value"), tree), call_lines=call_lines
    )
    source = (LIBRARY / "minimax" / "correct_plain.py").read_text(encoding="utf-8")
    began = time.process_time()
    run_local(tree, source, spec)
    return (time.process_time() - began) * 1000


def _large_run_ms(call_lines: bool) -> tuple[float, int, float]:
    tree = LARGE_TREE
    spec = dataclasses.replace(
        entry_spec("minimax", ("max_value", "min_value"), tree), call_lines=call_lines
    )
    source = (LIBRARY / "minimax" / "correct_plain.py").read_text(encoding="utf-8")
    began = time.perf_counter()
    record = run_sandboxed(tree, source, "submission.py", spec, Limits())
    elapsed = (time.perf_counter() - began) * 1000
    assert str(record.outcome.verdict) == "completed", record.outcome
    return elapsed, len(tree), record.usage.cpu_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    # Once each beforehand: the fork-server, the exercises' pools and caches.
    for slug, path in GRADINGS:
        _grading_ms(slug, path, True)
    _large_run_ms(True)
    _local_cpu_ms(True)
    print(f"medians of {rounds} rounds, with and without the calling lines, in alternation")
    print(f"{'grading':62} {'with ms':>9} {'without':>9} {'ratio':>6}")
    for slug, path in GRADINGS:
        times: dict[bool, list[float]] = {True: [], False: []}
        for round_ in range(rounds):
            for lines in (True, False) if round_ % 2 == 0 else (False, True):
                times[lines].append(_grading_ms(slug, path, lines))
        with_, without = statistics.median(times[True]), statistics.median(times[False])
        print(f"{slug + ' ' + path:62} {with_:9.1f} {without:9.1f} {with_ / without:6.3f}")
    times = {True: [], False: []}
    child: dict[bool, list[float]] = {True: [], False: []}
    local: dict[bool, list[float]] = {True: [], False: []}
    nodes = 0
    for round_ in range(3 * rounds):
        for lines in (True, False) if round_ % 2 == 0 else (False, True):
            elapsed, nodes, cpu = _large_run_ms(lines)
            times[lines].append(elapsed)
            child[lines].append(cpu)
            local[lines].append(_local_cpu_ms(lines))
    for label, found in (
        (f"one sandboxed minimax run, {nodes:,} nodes: wall", times),
        (f"one sandboxed minimax run, {nodes:,} nodes: child's CPU", child),
        (f"one in-process minimax run, {nodes:,} nodes: CPU", local),
    ):
        with_, without = statistics.median(found[True]), statistics.median(found[False])
        print(f"{label:62} {with_:9.1f} {without:9.1f} {with_ / without:6.3f}")


if __name__ == "__main__":
    main()
