"""What grading costs per visited node: a correct minimax run in the sandbox and judged,
on random trees of growing size and on tic-tac-toe, with the in-process run of the same
code as the baseline (the sandbox's overhead is the ratio).

The last column is the floor of the design: what the grading would cost per node if the
sandbox cost nothing but one bare pipe round trip for each game call that must cross to
the trusted side (the in-process search, the judgement, the round trips; bench/floors.py).

Usage: .venv/bin/python bench/grading_cost.py [--sizes 1000,10000,100000] [--tictactoe]
Must run as root. Prints medians of --repeat runs per size (µs per visited node).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from floors import asked_calls, bare_pipe_round_trip

from reference.allocation import gc_paused
from reference.exercises.model import Limits
from reference.feedback import judge
from reference.games import generate
from reference.naming import action_labels, child_names
from reference.search import search
from reference.tree import Edge, Kind, Node, Tree
from worker.harness.local import entry_spec, run_local
from worker.sandbox import SandboxVerdict, run_sandboxed

SOURCE = (
    Path(__file__).resolve().parents[1] / "exercises/implementations/minimax/correct_plain.py"
).read_text()


def random_tree(size: int, seed: int = 1) -> Tree:
    """A MAX/MIN tree of about ``size`` nodes, branching 2-4, built breadth first."""
    rng = random.Random(seed)
    nodes: dict[str, Node] = {}
    frontier = [("A", Kind.MAX, True)]
    count = 1
    while frontier:
        name, kind, is_root = frontier.pop(0)
        if count >= size:
            nodes[name] = Node(name, Kind.LEAF, utility=rng.randint(-9, 9))
            continue
        width = rng.randint(2, 4)
        names = child_names(name, width, parent_is_root=is_root)
        count += width
        edges = tuple(map(Edge, action_labels(name, width), names))
        nodes[name] = Node(name, kind, edges)
        other = Kind.MIN if kind is Kind.MAX else Kind.MAX
        frontier += [(child, other, False) for child in names]
    return Tree("A", nodes.values())


def measure(tree: Tree, repeat: int) -> tuple[float, float, float, float, int, int]:
    """Medians of (sandboxed run, its judgement, the in-process run and judgement, the
    in-process run alone), the number of nodes visited and of game calls that must cross
    to the trusted side."""
    spec = entry_spec("minimax", ("max_value", "min_value"), tree)
    limits = Limits(cpu_seconds=120, wall_seconds=300, memory_mb=2048)
    runs, judgements, local, searches = [], [], [], []
    visited = asked = 0
    reference = search(tree, "minimax")
    for _ in range(repeat):
        with gc_paused():  # as worker.grading does
            start = time.perf_counter()
            record = run_sandboxed(tree, SOURCE, "minimax.py", spec, limits)
            judged = time.perf_counter()
            assert record.outcome.verdict is SandboxVerdict.COMPLETED, record.outcome
            feedback = judge(tree, reference, record.observed)
            runs.append(judged - start)
            judgements.append(time.perf_counter() - judged)
        assert feedback.perfect
        visited = len(record.observed.visited())
        start = time.perf_counter()
        with gc_paused():
            observed = run_local(tree, SOURCE, spec).observed
            searched = time.perf_counter()
            judge(tree, reference, observed)
        local.append(time.perf_counter() - start)
        searches.append(searched - start)
        asked = asked_calls(observed)
    median = statistics.median
    return median(runs), median(judgements), median(local), median(searches), visited, asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tictactoe", action="store_true", help="also the full tic-tac-toe tree")
    args = parser.parse_args()
    trees = [(f"random {int(size):,}", random_tree(int(size))) for size in args.sizes.split(",")]
    if args.tictactoe:
        trees.append(("tic-tac-toe", generate("tictactoe")))
    pipe = bare_pipe_round_trip(20_000)
    print(f"bare pipe round trip {pipe * 1e6:.1f} µs (two bare processes, pinned)")
    print(
        f"{'tree':>16} {'nodes':>9} {'sandbox s':>10} {'judge s':>8} {'graded s':>9} "
        f"{'µs/node':>8} {'in-process s':>13} {'ratio':>6} {'floor µs/node':>14}"
    )
    for label, tree in trees:
        repeat = 1 if len(tree) > 200_000 else args.repeat
        run, judged, local, searched, visited, asked = measure(tree, repeat)
        graded = run + judged
        per_node = graded / visited * 1e6
        # The design's floor: the search in process, the sandboxed run's judgement, and a
        # bare pipe round trip for every call that must cross (see bench/floors.py).
        floor = (searched + judged + asked * pipe) / visited * 1e6
        print(
            f"{label:>16} {visited:>9,} {run:>10.3f} {judged:>8.3f} {graded:>9.3f} "
            f"{per_node:>8.1f} {local:>13.3f} {graded / local:>6.2f} {floor:>14.1f}"
        )


if __name__ == "__main__":
    main()
