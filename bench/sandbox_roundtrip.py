"""What the sandbox costs: one game call's round trip, and one whole run on a tiny tree.

1. Round trip: a submission makes N ``game.actions`` calls (each waits for the grader's
   answer; ``terminal_test`` is answered in the child) and times them itself;
   with the grader and the child pinned to one CPU, and unpinned (the baseline). For
   scale, the same round trip between two bare processes over the same pipes.
2. Run: ``run_sandboxed`` of a correct alpha-beta on AIMA Figure 5.2 with a warm
   fork-server, against the baseline of starting a bare ``python -I -S -c pass``.
3. Grading: the whole grading of one ``aima-fig5.2-alphabeta`` submission as the worker
   does it (the public tree and the hidden trees in one sandbox session, each judged, the
   report built), against the same baseline. For scale, what is under it:
   - the in-process floor: the same searches run in this process (no sandbox at all) and
     judged, what grading would cost if the sandbox cost nothing;
   - the lower bound of the design: that floor plus one bare pipe round trip for each game
     call that must cross to the trusted side (see bench/floors.py);
   - the session's fixed cost: the same trees searched in the sandbox by a submission that
     makes no game call at all.

Usage: .venv/bin/python bench/sandbox_roundtrip.py [--calls 5000] [--repeat 31]
Must run as root (the sandbox refuses to run students' code unconfined). Prints medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from floors import asked_calls, bare_pipe_round_trip

from grader.config import Settings
from reference.allocation import gc_paused
from reference.exercises.loader import load_exercise
from reference.exercises.model import Exercise, Limits
from reference.feedback import judge
from reference.observed import Observed
from reference.treefile import parse_compact
from worker.grading import grade
from worker.harness.local import entry_spec, run_local
from worker.sandbox import (
    ForkServer,
    SandboxOptions,
    SandboxVerdict,
    run_sandboxed,
    run_sandboxed_trees,
)
from worker.trees import cases

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FIG52 = "MAX[ MIN[3 12 8] MIN[2 4 6] MIN[14 5 2] ]"

CALLS = """
import time
def max_value(game, state, alpha, beta):
    game.actions(state)
    start = time.perf_counter()
    for _ in range({calls}):
        game.actions(state)
    print((time.perf_counter() - start) / {calls})
    return 0
def min_value(game, state, alpha, beta):
    return 0
"""

ALPHABETA = """
import math
def max_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v
def min_value(game, state, alpha, beta):
    if game.terminal_test(state):
        return game.utility(state, "MAX")
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
"""


NO_CALLS = """
def max_value(game, state, alpha, beta):
    return 0
def min_value(game, state, alpha, beta):
    return 0
"""


def round_trip(server: ForkServer, calls: int, repeat: int, *, pin: bool) -> float:
    """Median seconds per game call, as the submission measured it."""
    tree = parse_compact(FIG52)
    spec = entry_spec("alphabeta", ("max_value", "min_value"), tree)
    options = SandboxOptions(forkserver=server, pin_cpu=pin, request_cap=calls + 10)
    times = []
    for _ in range(repeat):
        record = run_sandboxed(
            tree, CALLS.format(calls=calls), "bench.py", spec, Limits(), options=options
        )
        assert record.outcome.verdict is SandboxVerdict.COMPLETED, record.outcome
        times.append(float(record.stdout))
    return statistics.median(times)


def one_run(server: ForkServer, repeat: int, *, pin: bool = True) -> float:
    """Median seconds of one sandboxed run of alpha-beta on Figure 5.2."""
    tree = parse_compact(FIG52)
    spec = entry_spec("alphabeta", ("max_value", "min_value"), tree)
    options = SandboxOptions(forkserver=server, pin_cpu=pin)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        record = run_sandboxed(tree, ALPHABETA, "bench.py", spec, Limits(), options=options)
        times.append(time.perf_counter() - start)
        assert record.outcome.verdict is SandboxVerdict.COMPLETED, record.outcome
    return statistics.median(times)


def graded_exercise() -> tuple[Settings, Exercise]:
    """The settings (hidden-tree key, exercises folder) and the exercise graded here."""
    settings = Settings.from_env()
    return settings, load_exercise(os.path.join(ROOT, "exercises", "aima-fig5.2-alphabeta"))


def one_grading(server: ForkServer, repeat: int) -> tuple[float, int]:
    """Median seconds to grade a correct submission of ``aima-fig5.2-alphabeta``, and how
    many trees that took."""
    settings, exercise = graded_exercise()
    options = SandboxOptions(forkserver=server)
    times = []
    trees = 0
    for _ in range(repeat):
        start = time.perf_counter()
        report = grade(
            exercise,
            ALPHABETA,
            "bench.py",
            key=settings.hidden_tree_key,
            exercises_dir=settings.exercises_dir,
            options=options,
        )
        times.append(time.perf_counter() - start)
        assert report.verdict == "passed", report.message
        trees = len(report.cases)
    return statistics.median(times), trees


def in_process_floor(repeat: int) -> tuple[float, int]:
    """Median seconds to search every tree of ``aima-fig5.2-alphabeta`` with the correct
    alpha-beta in this process and judge it: grading's cost without any sandbox; and how
    many of its game calls the sandbox must carry across."""
    settings, exercise = graded_exercise()
    times = []
    observed: list[Observed] = []
    for _ in range(repeat):
        start = time.perf_counter()
        observed.clear()
        with gc_paused():
            for case in cases(exercise, settings.hidden_tree_key, settings.exercises_dir):
                spec = entry_spec(exercise.algorithm, exercise.entry_points, case.tree)
                run = run_local(case.tree, ALPHABETA, spec, "bench.py")
                feedback = judge(case.tree, case.reference_of(exercise), run.observed)
                assert feedback.perfect
                observed.append(run.observed)
        times.append(time.perf_counter() - start)
    return statistics.median(times), sum(map(asked_calls, observed))


def empty_session(server: ForkServer, repeat: int) -> float:
    """Median seconds of the sandbox session of a grading of ``aima-fig5.2-alphabeta`` (all
    its trees, not judged) for a submission that makes no game call: the session's fixed
    cost, whatever the search."""
    settings, exercise = graded_exercise()
    runs = [
        (case.tree, entry_spec(exercise.algorithm, exercise.entry_points, case.tree))
        for case in cases(exercise, settings.hidden_tree_key, settings.exercises_dir)
    ]
    options = SandboxOptions(forkserver=server)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        with gc_paused():
            records = run_sandboxed_trees(
                runs, NO_CALLS, "bench.py", exercise.limits, options=options
            )
        times.append(time.perf_counter() - start)
        assert all(record.outcome.verdict is SandboxVerdict.COMPLETED for record in records)
    return statistics.median(times)


def bare_start(repeat: int) -> float:
    """Median seconds to start and end ``python -I -S -c pass``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-I", "-S", "-c", "pass"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=31)
    args = parser.parse_args()

    with ForkServer() as server:
        one_run(server, 3)  # warm both sides up
        pinned = round_trip(server, args.calls, max(5, args.repeat // 4), pin=True)
        unpinned = round_trip(server, args.calls, max(5, args.repeat // 4), pin=False)
        pipe = bare_pipe_round_trip(args.calls * 4)
        print(f"game call round trip  median {pinned * 1e6:6.1f} us (grader and child pinned)")
        print(f"game call round trip  median {unpinned * 1e6:6.1f} us (unpinned, baseline)")
        print(f"bare pipe round trip         {pipe * 1e6:6.1f} us (two bare processes, pinned)")
        print(f"pinning speed-up {unpinned / pinned:.2f}x")
        run = one_run(server, args.repeat)
        run_unpinned = one_run(server, args.repeat, pin=False)
        one_grading(server, 3)  # the exercise's hidden trees are chosen once
        grading, trees = one_grading(server, args.repeat)
        fixed = empty_session(server, args.repeat)
    floor, asked = in_process_floor(args.repeat)
    start = bare_start(args.repeat)
    print(f"sandboxed run (Fig 5.2)  median {run * 1e3:6.2f} ms (warm fork-server, pinned)")
    print(
        f"sandboxed run (Fig 5.2)  median {run_unpinned * 1e3:6.2f} ms (warm fork-server, unpinned)"
    )
    print(f"python -I -S -c pass     median {start * 1e3:6.2f} ms (bare start, baseline)")
    print(f"run / bare start {run / start:.2f}")
    print(
        f"graded submission (aima-fig5.2-alphabeta, {trees} trees)  median "
        f"{grading * 1e3:6.2f} ms (warm fork-server)"
    )
    print(f"grading / bare start {grading / start:.2f}")
    print(
        f"searched and judged in process, no sandbox  median {floor * 1e3:6.2f} ms "
        f"(the floor) = {floor / start:.2f} of a bare start"
    )
    bound = floor + asked * pipe
    print(
        f"the floor + {asked} asked calls x bare pipe round trip = {bound * 1e3:6.2f} ms "
        f"(the design's lower bound) = {bound / start:.2f} of a bare start"
    )
    print(
        f"sandbox session, {trees} trees, no game call  median {fixed * 1e3:6.2f} ms "
        f"(its fixed cost) = {fixed / start:.2f} of a bare start"
    )


if __name__ == "__main__":
    main()
