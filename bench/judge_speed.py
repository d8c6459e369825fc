"""What judging costs per node: ``reference.feedback.judge`` on a correct search of random
trees of growing size (and, with --tictactoe, the full tic-tac-toe tree), with the
in-process run that recorded the search beside it as the scale; and what it costs per
tree on the small trees of a typical grading (an exercise's public and hidden trees).

Usage: .venv/bin/python bench/judge_speed.py [--sizes 1000,10000,100000] [--repeat 5]
       [--algorithm minimax|alphabeta] [--tictactoe] [--exercise aima-fig5.2-alphabeta]
       [--baseline REV]
Prints medians of --repeat runs (µs per node; ms per grading and µs per tree for the
small trees), with the collector paused as worker.grading does, and how far judging is
from linear: each tree's µs per node over the smallest tree's. No root needed: nothing
runs in the sandbox. Each tree is judged with one reference search, as the worker keeps
it, so trees of up to reference.feedback.tree_facts.KEPT_NODES nodes reuse their kept
facts after the first run; larger trees are worked out anew every time. The column
"anew" judges every tree as if met for the first time (its facts forgotten before each
run): the judge's own growth, the same work at every size.

``--baseline REV`` measures the same with the code of commit ``REV`` (a temporary git
worktree of it; this script run with ``PYTHONPATH`` pointing at it) and prints both side
by side, the baseline's run first, then this checkout's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import baseline  # the sibling script's: bench/ is on the path when run
from grading_cost import random_tree  # the sibling script: bench/ is on the path when run

from grader.config import Settings
from reference.allocation import gc_paused
from reference.exercises import load_catalog
from reference.feedback import judge
from reference.feedback.tree_facts import _kept as kept_facts
from reference.games import generate
from reference.hidden import LIBRARY_FOLDER, load_library
from reference.observed import Observed
from reference.search import SearchResult, search
from reference.tree import Tree
from worker.harness.local import entry_spec, run_local

try:
    from worker.trees import cases
except ImportError:  # older code (a --baseline) kept them in worker.grading
    from worker.grading import cases  # type: ignore[attr-defined,no-redef,unused-ignore]

ROOT = Path(__file__).resolve().parents[1]
IMPLEMENTATIONS = ROOT / "exercises/implementations"
SOURCES = {
    "minimax": IMPLEMENTATIONS / "minimax/correct_plain.py",
    "alphabeta": IMPLEMENTATIONS / "alphabeta/correct_fail_soft.py",
}


def median_time(
    action: Callable[[], object], repeat: int, before: Callable[[], object] | None = None
) -> float:
    """The median wall time of ``repeat`` runs of ``action``, the collector paused
    (``before`` is called, untimed, before each)."""
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        with gc_paused():
            start = time.perf_counter()
            action()
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(tree: Tree, algorithm: str, repeat: int) -> tuple[float, float, float]:
    """The median times of a correct run recorded in process, of judging it, and of judging
    it with the tree's facts forgotten before each run."""
    source = SOURCES[algorithm].read_text()
    spec = entry_spec(algorithm, ("max_value", "min_value"), tree)
    reference = search(tree, algorithm)
    observed = run_local(tree, source, spec).observed
    feedback = judge(tree, reference, observed)
    assert feedback.perfect, feedback.first_divergence
    local = median_time(lambda: run_local(tree, source, spec), repeat)
    judged = median_time(lambda: judge(tree, reference, observed), repeat)
    anew = median_time(lambda: judge(tree, reference, observed), repeat, before=kept_facts.clear)
    return local, judged, anew


def measure_small(slug: str, repeat: int) -> tuple[int, int, float, float]:
    """Judging one grading's trees (public and hidden) of exercise ``slug``: the number of
    trees and of nodes, and the median times of judging them all for a correct search and
    for the library's wrong ones (the mean over them), each reference kept and reused as
    worker.grading keeps it."""
    settings = Settings.from_env()
    exercise = load_catalog(settings.exercises_dir).get(slug)
    graded = cases(exercise, settings.hidden_tree_key, settings.exercises_dir)
    library = load_library(settings.exercises_dir / LIBRARY_FOLDER)
    sources = [impl.source for impl in library if impl.applies_to(exercise)]
    correct = next(impl.source for impl in library if impl.is_correct_for(exercise))
    depth = exercise.options.depth_limit
    runs = []  # for each source: (tree, reference, observed) of every case
    for source in [correct, *sources]:
        runs.append(
            [
                (
                    case.tree,
                    case.reference_of(exercise),
                    run_local(
                        case.tree,
                        source,
                        entry_spec(exercise.algorithm, exercise.entry_points, case.tree, depth),
                    ).observed,
                )
                for case in graded
            ]
        )

    def grading(items: list[tuple[Tree, SearchResult, Observed]]) -> None:
        for tree, reference, observed in items:
            judge(tree, reference, observed, exercise.scoring)

    right = median_time(lambda: grading(runs[0]), repeat * 20)

    def all_wrong() -> None:
        for items in runs[1:]:
            grading(items)

    wrong = median_time(all_wrong, repeat) / len(sources)
    nodes = sum(len(case.tree) for case in graded)
    return len(graded), nodes, right, wrong


def measure_all(args: argparse.Namespace) -> dict[str, Any]:
    """Every figure this script prints, measured by the code on the path."""
    trees = [(f"random {int(size):,}", random_tree(int(size))) for size in args.sizes.split(",")]
    if args.tictactoe:
        trees.append(("tic-tac-toe", generate("tictactoe")))
    rows = []
    for label, tree in trees:
        repeat = min(args.repeat, 3) if len(tree) > 200_000 else args.repeat
        local, judged, anew = measure(tree, args.algorithm, repeat)
        rows.append(
            {"tree": label, "nodes": len(tree), "judge": judged, "anew": anew, "local": local}
        )
    count, nodes, right, wrong = measure_small(args.exercise, args.repeat)
    small = {"trees": count, "nodes": nodes, "correct": right, "wrong": wrong}
    return {"rows": rows, "small": small}


def at_commit(revision: str, argv: list[str]) -> dict[str, Any]:
    """The figures measured by commit ``revision``'s code (this script, run in a temporary
    git worktree of it, with the same arguments)."""
    return dict(baseline.at_commit(revision, __file__, [*argv, "--json"]))


def report(label: str, measured: dict[str, Any], args: argparse.Namespace) -> None:
    rows = measured["rows"]
    print(f"{label}: {args.algorithm}, medians of {args.repeat} runs")
    print(
        f"{'tree':>16} {'nodes':>9} {'judge s':>9} {'µs/node':>8} {'/smallest':>9} "
        f"{'anew µs/node':>13} {'/smallest':>9} "
        f"{'run_local s':>12} {'µs/node':>8} {'judge/run':>10}"
    )
    first = rows[0]["judge"] / rows[0]["nodes"]
    first_anew = rows[0]["anew"] / rows[0]["nodes"]
    for row in rows:
        nodes, judged, anew, local = row["nodes"], row["judge"], row["anew"], row["local"]
        print(
            f"{row['tree']:>16} {nodes:>9,} {judged:>9.3f} {judged / nodes * 1e6:>8.2f} "
            f"{judged / nodes / first:>9.2f} "
            f"{anew / nodes * 1e6:>13.2f} {anew / nodes / first_anew:>9.2f} "
            f"{local:>12.3f} {local / nodes * 1e6:>8.2f} {judged / local:>10.2f}"
        )
    small = measured["small"]
    count, nodes = small["trees"], small["nodes"]
    print(f"\n{args.exercise}: {count} trees, {nodes} nodes in all, judged as one grading")
    print(f"{'search':>16} {'ms/grading':>11} {'µs/tree':>8} {'µs/node':>8}")
    for name, seconds in (("correct", small["correct"]), ("wrong (mean)", small["wrong"])):
        print(
            f"{name:>16} {seconds * 1e3:>11.3f} {seconds / count * 1e6:>8.1f} "
            f"{seconds / nodes * 1e6:>8.2f}"
        )


def ratios(label: str, measured: dict[str, Any], key: str) -> str:
    rows = measured["rows"]
    first = rows[0][key] / rows[0]["nodes"]
    return f"{label:>24}: " + ", ".join(
        f"{row['tree']} {row[key] / row['nodes'] / first:.2f}x" for row in rows[1:]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--algorithm", choices=sorted(SOURCES), default="minimax")
    parser.add_argument("--tictactoe", action="store_true", help="also the full tic-tac-toe tree")
    parser.add_argument("--exercise", default="aima-fig5.2-alphabeta", help="small trees")
    parser.add_argument("--baseline", default="", help="a commit to compare with")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure_all(args)))
        return
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    argv = [
        *("--sizes", args.sizes, "--repeat", str(args.repeat), "--algorithm", args.algorithm),
        *("--exercise", args.exercise),
        *(("--tictactoe",) if args.tictactoe else ()),
    ]
    before = at_commit(args.baseline, argv) if args.baseline else None
    this = measure_all(args)
    if before is not None:
        report(f"baseline {args.baseline}", before, args)
        print()
    report("this checkout", this, args)
    for key, what in (("judge", "as kept"), ("anew", "facts worked out anew")):
        print(f"\njudging's µs per node over the smallest tree's ({what}; 1.00x: linear)")
        if before is not None:
            print(ratios(f"baseline {args.baseline}", before, key))
        print(ratios("this checkout", this, key))


if __name__ == "__main__":
    main()
