"""What the largest hidden-tree policies the budgets accept cost a worker, beside a shipped
exercise's.

For each policy, a fresh Python process does what a worker does the first time it grades
an exercise (``worker.trees.prepared``: the pool of catchers judged against the library,
each catcher's reference search kept) and then draws one grading's hidden trees
(``worker.trees.cases``), and reports its own CPU time and peak resident memory. The
same is done by a process that only imports the worker's modules: the floor every process
pays. Prints medians over the rounds, beside the shipped exercise's figures and as ratios
to them.

The policies are Figure 5.2 alpha-beta (the exercise with the largest library of wrong
implementations) with ``hidden_trees`` set to the largest the budgets accept: at each
branching, the deepest tree and the most trees per grading that fit.

    .venv/bin/python bench/budgets.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reference.budgets import (  # noqa: E402
    HIDDEN_DRAW_NODES,
    HIDDEN_TREE_NODES,
    full_tree_nodes,
    largest_depth,
)

SLUG = "aima-fig5.2-alphabeta"
CHILD = """
import json, resource, sys, time
from dataclasses import replace
from pathlib import Path
sys.path.insert(0, {root!r})
from reference.exercises import load_exercise
from reference.hidden import DEVELOPMENT_KEY
from worker.trees import cases, prepared
policy = json.loads(sys.argv[1])
exercises = Path({root!r}) / "exercises"
exercise = load_exercise(exercises / {slug!r})
began = time.process_time()
if policy is not None:
    exercise = replace(exercise, hidden=replace(exercise.hidden, **policy))
    ready = prepared(exercise, DEVELOPMENT_KEY, exercises)
    drawn = cases(exercise, DEVELOPMENT_KEY, exercises, "bench-draw")
    pool = ready.pool
    facts = dict(
        tried=pool.tried, work=pool.work, cut_short=pool.cut_short,
        catchers=len(pool.catchers), catcher_nodes=sum(len(c.tree) for c in pool.catchers),
        drawn_nodes=sum(len(case.tree) for case in drawn if case.hidden),
    )
else:
    facts = {{}}
cpu = time.process_time() - began
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(dict(facts, cpu=cpu, rss=rss)))
"""


def policies() -> list[tuple[str, dict[str, int] | None]]:
    found: list[tuple[str, dict[str, int] | None]] = [
        ("imports only", None),
        ("shipped (count 8, depth 5, branching 4)", {"count": 8}),
    ]
    for branching in (2, 3, 4, 6, 8):
        depth = largest_depth(branching)
        count = min(100, HIDDEN_DRAW_NODES // full_tree_nodes(depth, branching))
        policy = {"count": count, "max_depth": depth, "max_branching": branching}
        found.append((f"count {count}, depth {depth}, branching {branching}", policy))
    return found


def measure(policy: dict[str, int] | None) -> dict[str, float]:
    script = CHILD.format(root=str(ROOT), slug=SLUG)
    argument = json.dumps(policy)
    output = subprocess.run(
        [sys.executable, "-c", script, argument], capture_output=True, text=True, check=True
    ).stdout
    facts: dict[str, float] = json.loads(output.strip().splitlines()[-1])
    return facts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    print(f"budgets: {HIDDEN_TREE_NODES:,} nodes a hidden tree, {HIDDEN_DRAW_NODES:,} a draw")
    print(f"medians of {rounds} fresh processes each; ratios to the shipped policy\n")
    header = (
        f"{'policy':<40} {'worst tree':>10} {'tried':>5} {'work':>10} {'catchers':>8} "
        f"{'nodes':>7} {'drawn':>6} {'CPU s':>6} {'x':>5} {'RSS MB':>7} {'x':>5}  stopped"
    )
    print(header)
    shipped: dict[str, float] = {}
    for name, policy in policies():
        runs = [measure(policy) for _ in range(rounds)]
        cpu = statistics.median(run["cpu"] for run in runs)
        rss = statistics.median(run["rss"] for run in runs)
        last = runs[-1]
        if policy == {"count": 8}:
            shipped = {"cpu": cpu, "rss": rss}
        worst = ""
        if policy is not None:
            depth = policy.get("max_depth", 5)
            worst = f"{full_tree_nodes(depth, policy.get('max_branching', 4)):,}"
        ratio_cpu = f"{cpu / shipped['cpu']:.1f}" if shipped and policy else ""
        ratio_rss = f"{rss / shipped['rss']:.2f}" if shipped and policy else ""
        print(
            f"{name:<40} {worst:>10} {int(last.get('tried', 0)):>5} "
            f"{int(last.get('work', 0)):>10,} {int(last.get('catchers', 0)):>8} "
            f"{int(last.get('catcher_nodes', 0)):>7,} {int(last.get('drawn_nodes', 0)):>6,} "
            f"{cpu:>6.2f} {ratio_cpu:>5} {rss:>7.1f} {ratio_rss:>5}  "
            f"{last.get('cut_short') or ''}"
        )


if __name__ == "__main__":
    main()
