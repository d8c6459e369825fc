"""What judging costs per node: ``reference.feedback.judge`` on a correct search of random
trees of growing size (and, with --tictactoe, the full tic-tac-toe tree), with the
in-process run that recorded the search beside it as the scale; and what it costs per
tree on the small trees of a typical grading (an exercise's public and hidden trees).

Usage: .venv/bin/python bench/judge_speed.py [--sizes 1000,10000,100000] [--repeat 5]
       [--algorithm minimax|alphabeta] [--tictactoe] [--exercise aima-fig5.2-alphabeta]
Prints medians of --repeat runs (µs per node; ms per grading and µs per tree for the
small trees), with the collector paused as worker.grading does. No root needed: nothing
runs in the sandbox. Each tree is judged with one reference search, as the worker keeps
it, so trees of up to reference.feedback.tree_facts.KEPT_NODES nodes reuse their kept
facts after the first run; larger trees are worked out anew every time.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from grading_cost import random_tree  # the sibling script: bench/ is on the path when run

from grader.config import Settings
from reference.allocation import gc_paused
from reference.exercises import load_catalog
from reference.feedback import judge
from reference.games import generate
from reference.hidden import LIBRARY_FOLDER, load_library
from reference.observed import Observed
from reference.search import SearchResult, search
from reference.tree import Tree
from worker.harness.local import entry_spec, run_local
from worker.trees import cases

IMPLEMENTATIONS = Path(__file__).resolve().parents[1] / "exercises/implementations"
SOURCES = {
    "minimax": IMPLEMENTATIONS / "minimax/correct_plain.py",
    "alphabeta": IMPLEMENTATIONS / "alphabeta/correct_fail_soft.py",
}


def median_time(action: Callable[[], object], repeat: int) -> float:
    """The median wall time of ``repeat`` runs of ``action``, the collector paused."""
    times = []
    for _ in range(repeat):
        with gc_paused():
            start = time.perf_counter()
            action()
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(tree: Tree, algorithm: str, repeat: int) -> tuple[float, float]:
    """The median times of a correct run recorded in process and of judging it."""
    source = SOURCES[algorithm].read_text()
    spec = entry_spec(algorithm, ("max_value", "min_value"), tree)
    reference = search(tree, algorithm)
    observed = run_local(tree, source, spec).observed
    feedback = judge(tree, reference, observed)
    assert feedback.perfect, feedback.first_divergence
    local = median_time(lambda: run_local(tree, source, spec), repeat)
    judged = median_time(lambda: judge(tree, reference, observed), repeat)
    return local, judged


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--algorithm", choices=sorted(SOURCES), default="minimax")
    parser.add_argument("--tictactoe", action="store_true", help="also the full tic-tac-toe tree")
    parser.add_argument("--exercise", default="aima-fig5.2-alphabeta", help="small trees")
    args = parser.parse_args()
    trees = [(f"random {int(size):,}", random_tree(int(size))) for size in args.sizes.split(",")]
    if args.tictactoe:
        trees.append(("tic-tac-toe", generate("tictactoe")))
    print(f"{args.algorithm}, medians of {args.repeat} runs")
    print(
        f"{'tree':>16} {'nodes':>9} {'judge s':>9} {'µs/node':>8} "
        f"{'run_local s':>12} {'µs/node':>8} {'judge/run':>10}"
    )
    for label, tree in trees:
        repeat = min(args.repeat, 3) if len(tree) > 200_000 else args.repeat
        local, judged = measure(tree, args.algorithm, repeat)
        nodes = len(tree)
        print(
            f"{label:>16} {nodes:>9,} {judged:>9.3f} {judged / nodes * 1e6:>8.2f} "
            f"{local:>12.3f} {local / nodes * 1e6:>8.2f} {judged / local:>10.2f}"
        )
    count, nodes, right, wrong = measure_small(args.exercise, args.repeat)
    print(f"\n{args.exercise}: {count} trees, {nodes} nodes in all, judged as one grading")
    print(f"{'search':>16} {'ms/grading':>11} {'µs/tree':>8} {'µs/node':>8}")
    for label, seconds in (("correct", right), ("wrong (mean)", wrong)):
        print(
            f"{label:>16} {seconds * 1e3:>11.3f} {seconds / count * 1e6:>8.1f} "
            f"{seconds / nodes * 1e6:>8.2f}"
        )


if __name__ == "__main__":
    main()
