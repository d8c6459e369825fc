"""What observing the values of a decision function's helpers costs a grading.

Where a search is written as the textbook's decision function (its helpers nested in
``minmax_decision``), the harness follows every call of the student's functions with a
trace function to see the values they return (:mod:`worker.harness.observer`). This grades
the same decision-function searches with it and without it, in alternation: without is the
same file whose decision function first calls ``sys.settrace(None)`` (what a student's code
may do: the observation ends there, the search runs untraced). It prints each one's median,
the medians' ratio: gradings of the shipped exercises through the real sandbox
(``worker.grading.grade``: public and hidden trees, judging, the report), and one run of a
correct minimax on a uniform tree of 5,461 nodes, where the search is most of the work:
sandboxed (its wall time and the child's CPU time, where the tracing is done) and in process
(the harness alone, no round trips: the tracing's cost least diluted).

    .venv/bin/python bench/helper_observation_cost.py [--rounds 7]
"""

from __future__ import annotations

import argparse
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
    ("aima-fig5.2-minimax", "minimax/correct_decision.py", "minmax_decision"),
    ("grundy-7-minimax", "minimax/correct_decision.py", "minmax_decision"),
    ("tictactoe-seed-minimax", "minimax/correct_decision.py", "minmax_decision"),
    ("expectiminimax-rescaling", "expectimax/correct_decision.py", "expectiminimax"),
)
LARGE_BRANCHING, LARGE_DEPTH = 4, 6
"""A single run of a correct minimax on a uniform tree this wide and deep (5,461 nodes)."""
UNOBSERVED = """

import sys as _sys

_decision = {name}


def {name}(state, game):
    _sys.settrace(None)  # the harness's trace function: nothing below it is followed
    return _decision(state, game)
"""


def _source(path: str, name: str, observed: bool) -> str:
    source = (LIBRARY / path).read_text(encoding="utf-8")
    return source if observed else source + UNOBSERVED.format(name=name)


def _uniform(depth: int, maximizing: bool = True, seed: list[int] | None = None) -> str:
    """A uniform tree in compact notation, with leaves from a fixed sequence."""
    seed = [7] if seed is None else seed
    if depth == 0:
        seed[0] = (seed[0] * 1103515245 + 12345) % 2**31
        return str(seed[0] % 41 - 20)
    children = " ".join(_uniform(depth - 1, not maximizing, seed) for _ in range(LARGE_BRANCHING))
    return f"{'MAX' if maximizing else 'MIN'}[{children}]"


LARGE_TREE = parse_compact(_uniform(LARGE_DEPTH))
LARGE_SPEC = entry_spec("minimax", ("max_value", "min_value"), LARGE_TREE)


def _grading_ms(slug: str, path: str, name: str, observed: bool) -> float:
    exercise = load_catalog(EXERCISES).get(slug)
    began = time.perf_counter()
    report = grade(
        exercise,
        _source(path, name, observed),
        "submission.py",
        key=DEVELOPMENT_KEY,
        exercises_dir=EXERCISES,
        draw="helper-observation-bench",
    )
    elapsed = (time.perf_counter() - began) * 1000
    assert str(report.verdict) == "passed", report.message
    return elapsed


def _large_run(observed: bool) -> tuple[float, float, int]:
    """Wall and child CPU milliseconds of one sandboxed run, and the values observed."""
    source = _source("minimax/correct_decision.py", "minmax_decision", observed)
    began = time.perf_counter()
    record = run_sandboxed(LARGE_TREE, source, "submission.py", LARGE_SPEC, Limits())
    elapsed = (time.perf_counter() - began) * 1000
    assert str(record.outcome.verdict) == "completed", record.outcome
    returns = sum(type(event).__name__ == "Return" for event in record.observed.events)
    return elapsed, record.usage.cpu_ms, returns


def _local_cpu_ms(observed: bool) -> float:
    """CPU time of one in-process run of the harness on the large tree."""
    source = _source("minimax/correct_decision.py", "minmax_decision", observed)
    began = time.process_time()
    run_local(LARGE_TREE, source, LARGE_SPEC)
    return (time.process_time() - began) * 1000


def _row(label: str, found: dict[bool, list[float]]) -> None:
    with_, without = statistics.median(found[True]), statistics.median(found[False])
    print(f"{label:66} {with_:9.1f} {without:9.1f} {with_ / without:6.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    # Once each beforehand: the fork-server, the exercises' pools and caches.
    for slug, path, name in GRADINGS:
        _grading_ms(slug, path, name, True)
    _large_run(True)
    _local_cpu_ms(True)
    print(f"medians of {rounds} rounds, with and without the helpers' values, in alternation")
    print(f"{'grading':66} {'with ms':>9} {'without':>9} {'ratio':>6}")
    for slug, path, name in GRADINGS:
        times: dict[bool, list[float]] = {True: [], False: []}
        for round_ in range(rounds):
            for observed in (True, False) if round_ % 2 == 0 else (False, True):
                times[observed].append(_grading_ms(slug, path, name, observed))
        _row(f"{slug} {path}", times)
    wall: dict[bool, list[float]] = {True: [], False: []}
    child: dict[bool, list[float]] = {True: [], False: []}
    local: dict[bool, list[float]] = {True: [], False: []}
    returns = {True: 0, False: 0}
    for round_ in range(3 * rounds):
        for observed in (True, False) if round_ % 2 == 0 else (False, True):
            elapsed, cpu, returns[observed] = _large_run(observed)
            wall[observed].append(elapsed)
            child[observed].append(cpu)
            local[observed].append(_local_cpu_ms(observed))
    nodes = len(LARGE_TREE)
    _row(f"one sandboxed decision-function run, {nodes:,} nodes: wall", wall)
    _row(f"one sandboxed decision-function run, {nodes:,} nodes: child's CPU", child)
    _row(f"one in-process decision-function run, {nodes:,} nodes: CPU", local)
    print(f"values observed on the large tree: {returns[True]:,} with, {returns[False]:,} without")


if __name__ == "__main__":
    main()
