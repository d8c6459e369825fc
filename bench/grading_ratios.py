"""What grading a correct submission costs, for every shipped exercise, against a bare
Python start and against the design's lower bound; with the draw of hidden trees ready
(as a worker grades once it has graded the exercise: worker.trees) and made on the way
(as every grading did before draws were made ahead: the baseline), side by side.

For each exercise, each round grades the library's first correct implementation through
the sandbox (a warm fork-server, as a worker's) twice, in turn: once taking a draw made
ready beforehand (``Prepared.take`` after ``Prepared.stock_up``, not timed), once making
a new draw on the way (a new name each round). Then:

- bare start: ``python -I -S -c pass``, median of the rounds;
- the design's lower bound (bench/floors.py): the same trees searched in this process by
  the same implementation and judged, plus one bare pipe round trip for each game call
  that must cross to the trusted side.

Prints medians (ms) and the ratios: ready / bare start, ready / lower bound, on the way /
bare start, and ready / on the way. Must run as root (the sandbox refuses to run code
unconfined). Usage:

    .venv/bin/python bench/grading_ratios.py [--rounds 21] [--exercise SLUG ...]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from floors import asked_calls, bare_pipe_round_trip

from reference.allocation import gc_paused
from reference.exercises import load_catalog
from reference.exercises.model import Exercise
from reference.feedback import judge
from reference.hidden import DEVELOPMENT_KEY, LIBRARY_FOLDER, correct_for, load_library
from reference.hidden.library import Implementation
from worker.grading import grade
from worker.harness.local import entry_spec, run_local
from worker.sandbox import ForkServer, SandboxOptions
from worker.trees import Draw, draw_name, prepared

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"


COURSES = Path(__file__).resolve().parents[1] / "tests" / "worker" / "data"
"""A course's own correct code, for the exercises of its contract (as the tests grade)."""


def correct_source(exercise: Exercise, library: list[Implementation]) -> str:
    """A correct submission of ``exercise``: the library's first, or, for a course's
    contract, that course's own correct code."""
    contract = exercise.contract.name
    if contract == "cs188":
        agents = COURSES / "cs188_agents"
        return (agents / "_base.py").read_text() + (agents / "correct_alphabeta.py").read_text()
    if contract == "mit-6.034":
        return (COURSES / "mit6034" / "correct_lab.py").read_text()
    return next(iter(correct_for(exercise, library).values()))


def bare_start(rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-I", "-S", "-c", "pass"], check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def lower_bound(exercise: Exercise, source: str, rounds: int, pipe: float) -> float:
    """The in-process floor of one grading (a ready draw's trees searched and judged here)
    plus a bare pipe round trip per game call that must cross."""
    ready = prepared(exercise, DEVELOPMENT_KEY, EXERCISES)
    times, asked = [], 0
    for _ in range(rounds):
        draw = ready.take("bench")
        cases = [*ready.public, *draw.hidden]
        asked = 0
        started = time.perf_counter()
        with gc_paused():
            for case in cases:
                spec = entry_spec(
                    exercise.algorithm,
                    exercise.entry_points,
                    case.tree,
                    exercise.options.depth_limit,
                    contract=exercise.contract,
                )
                run = run_local(case.tree, source, spec, "correct.py")
                judge(case.tree, case.reference_of(exercise), run.observed)
                asked += asked_calls(run.observed)
        times.append(time.perf_counter() - started + asked * pipe)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--exercise", action="append", default=[])
    args = parser.parse_args()
    catalog = load_catalog(EXERCISES)
    library = load_library(EXERCISES / LIBRARY_FOLDER)
    slugs = args.exercise or catalog.slugs()
    pipe = bare_pipe_round_trip(20_000)
    start = bare_start(args.rounds)
    print(f"bare start (python -I -S -c pass) {start * 1e3:.2f} ms; bare pipe round trip "
          f"{pipe * 1e6:.1f} us")  # fmt: skip
    print(
        f"{'exercise':32} {'ready':>7} {'on way':>7} {'bound':>7} {'rdy/bare':>8} "
        f"{'rdy/bnd':>7} {'way/bare':>8} {'rdy/way':>7}"
    )
    summary: list[tuple[float, float, float]] = []
    with ForkServer() as server:
        options = SandboxOptions(forkserver=server)
        for slug in slugs:
            exercise = catalog.get(slug)
            source = correct_source(exercise, library)
            ready = prepared(exercise, DEVELOPMENT_KEY, EXERCISES)

            def graded(
                draw: str | Draw, exercise: Exercise = exercise, source: str = source
            ) -> float:
                started = time.perf_counter()
                report = grade(
                    exercise,
                    source,
                    "correct.py",
                    key=DEVELOPMENT_KEY,
                    exercises_dir=EXERCISES,
                    options=options,
                    draw=draw,
                )
                took = time.perf_counter() - started
                assert report.verdict == "passed", (exercise.slug, report.message)
                return took

            graded(ready.take("bench"))  # warm: the pool, the kept references
            with_ready, on_the_way = [], []
            for number in range(args.rounds):
                ready.stock_up("bench", size=1)
                with_ready.append(graded(ready.take("bench")))
                on_the_way.append(graded(draw_name(f"bench-{number}")))
            bound = lower_bound(exercise, source, max(5, args.rounds // 3), pipe)
            took, way = statistics.median(with_ready), statistics.median(on_the_way)
            summary.append((took / start, took / bound, way / start))
            print(
                f"{slug:32} {took * 1e3:7.2f} {way * 1e3:7.2f} {bound * 1e3:7.2f} "
                f"{took / start:8.2f} {took / bound:7.2f} {way / start:8.2f} {took / way:7.2f}"
            )
    columns = list(zip(*summary, strict=True))
    print(
        f"median over {len(summary)} exercises: ready/bare {statistics.median(columns[0]):.2f}, "
        f"ready/bound {statistics.median(columns[1]):.2f}, "
        f"on the way/bare {statistics.median(columns[2]):.2f}"
    )


if __name__ == "__main__":
    main()
