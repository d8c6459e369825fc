"""What preloading numpy in the fork-server costs (so that ``import numpy as np`` works in
students' code, as aima-python's does for ``np.inf``); only files that import it pay it.

Two fork-servers, one preloading the standard modules only and one with numpy too, started
in alternation: the server's start time, its resident and virtual size, and the median of
one sandboxed run of a correct alpha-beta on Figure 5.2 (each run forks a child of that
server, so a larger server could make each fork dearer). Medians over ``--rounds``.

    .venv/bin/python bench/sandbox_preload.py [--rounds 3] [--runs 60]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reference.exercises.loader import load_exercise  # noqa: E402
from worker.harness.local import entry_spec  # noqa: E402
from worker.sandbox import SandboxOptions, run_sandboxed  # noqa: E402
from worker.sandbox.forkserver import ForkServer  # noqa: E402
from worker.sandbox.importable import IMPORTABLE, PRELOADED  # noqa: E402

EXERCISE = ROOT / "exercises" / "aima-fig5.2-alphabeta"
SOURCE = (ROOT / "exercises" / "implementations" / "alphabeta" / "correct_fail_soft.py").read_text()


def status(pid: int) -> dict[str, int]:
    """VmRSS and VmSize of ``pid`` in KiB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmSize"):
            found[key] = int(value.split()[0])
    return found


def measure(preload: tuple[str, ...], runs: int) -> tuple[float, int, int, float]:
    """Start time (ms), RSS and VmSize (MiB) of a server preloading ``preload``, and the
    median of ``runs`` sandboxed Figure 5.2 runs (ms)."""
    exercise = load_exercise(EXERCISE)
    tree = exercise.trees[0].tree
    spec = entry_spec(exercise.algorithm, exercise.entry_points, tree)
    server = ForkServer(preload=preload)
    started = time.perf_counter()
    server.start()
    start_ms = (time.perf_counter() - started) * 1000
    assert server.pid is not None
    sizes = status(server.pid)
    options = SandboxOptions(forkserver=server)
    times = []
    try:
        for _ in range(runs):
            began = time.perf_counter()
            record = run_sandboxed(tree, SOURCE, "s.py", spec, exercise.limits, options=options)
            times.append((time.perf_counter() - began) * 1000)
            assert str(record.outcome.verdict) == "completed", record.outcome
    finally:
        server.stop()
    return start_ms, sizes["VmRSS"] // 1024, sizes["VmSize"] // 1024, statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    results: dict[str, list[tuple[float, int, int, float]]] = {"standard": [], "numpy": []}
    for _ in range(args.rounds):
        results["standard"].append(measure(PRELOADED, args.runs))
        results["numpy"].append(measure(IMPORTABLE, args.runs))
    print(f"{'preload':10} {'start ms':>9} {'RSS MiB':>8} {'VM MiB':>8} {'run ms':>8}")
    medians = {}
    for name, rows in results.items():
        columns = [statistics.median(column) for column in zip(*rows, strict=True)]
        medians[name] = columns
        start, rss, vm, run = columns
        print(f"{name:10} {start:9.1f} {rss:8.0f} {vm:8.0f} {run:8.2f}")
    ratio = [new / old for new, old in zip(medians["numpy"], medians["standard"], strict=True)]
    print(
        f"numpy/standard: start {ratio[0]:.2f}x, RSS {ratio[1]:.2f}x, "
        f"VM {ratio[2]:.2f}x, run {ratio[3]:.2f}x"
    )


if __name__ == "__main__":
    main()
