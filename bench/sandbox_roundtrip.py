"""What the sandbox costs: one game call's round trip, and one whole run on a tiny tree.

1. Round trip: a submission makes N ``game.actions`` calls (each waits for the grader's
   answer; ``terminal_test`` is answered in the child) and times them itself;
   with the grader and the child pinned to one CPU, and unpinned (the baseline). The same
   call about the same state over and over, and about a new state each time (the
   children of a wide tree, as a search asks them: each answer also tells the facts of
   the state's own children). For scale, the same round trip between two bare processes
   over the same pipes, measured in turn with the calls (rounds of each), and the ratio
   of each call to it.
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
       [--baseline REV]
Must run as root (the sandbox refuses to run students' code unconfined). Prints medians.

``--baseline REV`` measures the same with the code of commit ``REV`` (a temporary git
worktree of it; this script run with ``PYTHONPATH`` pointing at it) and prints both side
by side, the baseline's run first, then this checkout's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

import baseline  # the sibling script's: bench/ is on the path when run
from floors import asked_calls, bare_pipe_round_trip

from grader.config import Settings
from reference.allocation import gc_paused
from reference.exercises.loader import load_exercise
from reference.exercises.model import Exercise, Limits
from reference.feedback import judge
from reference.observed import Observed
from reference.tree import Edge, Kind, Node, Tree
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

try:
    from worker.trees import cases
except ImportError:  # older code (a --baseline) kept them in worker.grading
    from worker.grading import cases  # type: ignore[attr-defined,no-redef,unused-ignore]

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


FRESH_CALLS = """
import time
def max_value(game, state, alpha, beta):
    children = [game.result(state, a) for a in game.actions(state)]
    start = time.perf_counter()
    for child in children:
        game.actions(child)
    print((time.perf_counter() - start) / len(children))
    return 0
def min_value(game, state, alpha, beta):
    return 0
"""
"""A call about each child of the root, each a state not asked about before (its answer
tells the facts of its own children, as a search's first look at a state does)."""


def wide_tree(children: int) -> Tree:
    """A MAX root with ``children`` MIN children of three leaves each."""
    names = [f"B{i}" for i in range(children)]
    nodes = [Node("A", Kind.MAX, tuple(Edge(f"a{i}", name) for i, name in enumerate(names)))]
    for name in names:
        leaves = [f"{name}.{j}" for j in range(3)]
        nodes.append(
            Node(
                name,
                Kind.MIN,
                tuple(Edge(f"{name.lower()}.{j}", leaf) for j, leaf in enumerate(leaves)),
            )
        )
        nodes += [Node(leaf, Kind.LEAF, utility=j) for j, leaf in enumerate(leaves)]
    return Tree("A", nodes)


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


def fresh_trip(server: ForkServer, tree: Tree, repeat: int) -> float:
    """Median seconds per game call about a state not asked about before (pinned)."""
    spec = entry_spec("alphabeta", ("max_value", "min_value"), tree)
    options = SandboxOptions(forkserver=server, pin_cpu=True)
    times = []
    for _ in range(repeat):
        record = run_sandboxed(tree, FRESH_CALLS, "bench.py", spec, Limits(), options=options)
        assert record.outcome.verdict is SandboxVerdict.COMPLETED, record.outcome
        times.append(float(record.stdout))
    return statistics.median(times)


def round_trips(server: ForkServer, calls: int, rounds: int) -> dict[str, float]:
    """Median seconds of each kind of round trip, measured in turn, ``rounds`` times: a
    busy machine then slows them alike."""
    tree = wide_tree(calls)
    measured: dict[str, list[float]] = {"pinned": [], "unpinned": [], "fresh": [], "pipe": []}
    for _ in range(rounds):
        measured["pinned"].append(round_trip(server, calls, 1, pin=True))
        measured["unpinned"].append(round_trip(server, calls, 1, pin=False))
        measured["fresh"].append(fresh_trip(server, tree, 1))
        measured["pipe"].append(bare_pipe_round_trip(calls * 4))
    return {kind: statistics.median(times) for kind, times in measured.items()}


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


def measure_all(calls: int, repeat: int) -> dict[str, Any]:
    """Every figure this script prints, measured by the code on the path."""
    figures: dict[str, Any] = {}
    with ForkServer() as server:
        one_run(server, 3)  # warm both sides up
        fresh_trip(server, wide_tree(50), 1)
        figures.update(round_trips(server, calls, max(5, repeat // 4)))
        figures["run"] = one_run(server, repeat)
        figures["run_unpinned"] = one_run(server, repeat, pin=False)
        one_grading(server, 3)  # the exercise's hidden trees are chosen once
        figures["grading"], figures["trees"] = one_grading(server, repeat)
        figures["fixed"] = empty_session(server, repeat)
    figures["floor"], figures["asked"] = in_process_floor(repeat)
    figures["start"] = bare_start(repeat)
    return figures


def report(label: str, figures: dict[str, Any]) -> None:
    pinned, unpinned, fresh, pipe = (
        figures[key] for key in ("pinned", "unpinned", "fresh", "pipe")
    )
    run, run_unpinned, start = figures["run"], figures["run_unpinned"], figures["start"]
    grading, trees, fixed = figures["grading"], figures["trees"], figures["fixed"]
    floor, asked = figures["floor"], figures["asked"]
    print(f"--- {label}")
    print(f"game call round trip  median {pinned * 1e6:6.1f} us (grader and child pinned)")
    print(f"game call round trip  median {unpinned * 1e6:6.1f} us (unpinned, baseline)")
    print(f"a new state each call median {fresh * 1e6:6.1f} us (pinned)")
    print(f"bare pipe round trip         {pipe * 1e6:6.1f} us (two bare processes, pinned)")
    print(f"pinning speed-up {unpinned / pinned:.2f}x")
    print(
        f"call / bare pipe round trip: {pinned / pipe:.2f} (pinned), "
        f"{unpinned / pipe:.2f} (unpinned), {fresh / pipe:.2f} (a new state each call)"
    )
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


def at_commit(revision: str, argv: list[str]) -> dict[str, Any]:
    """The figures measured by commit ``revision``'s code (this script, run in a temporary
    git worktree of it, with the same arguments)."""
    return dict(baseline.at_commit(revision, __file__, [*argv, "--json"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=31)
    parser.add_argument("--baseline", default="", help="a commit to compare with")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure_all(args.calls, args.repeat)))
        return
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    argv = ["--calls", str(args.calls), "--repeat", str(args.repeat)]
    before = at_commit(args.baseline, argv) if args.baseline else None
    this = measure_all(args.calls, args.repeat)
    if before is not None:
        report(f"baseline {args.baseline}", before)
    report("this checkout", this)
    if before is not None:
        print(f"--- call / bare pipe round trip, baseline {args.baseline} -> this checkout")
        for key, what in (
            ("pinned", "the same state, pinned"),
            ("unpinned", "the same state, unpinned"),
            ("fresh", "a new state each call, pinned"),
        ):
            print(
                f"{what:>32}: {before[key] / before['pipe']:.2f} -> {this[key] / this['pipe']:.2f}"
                f"   ({before[key] * 1e6:.1f} -> {this[key] * 1e6:.1f} us)"
            )


if __name__ == "__main__":
    main()
