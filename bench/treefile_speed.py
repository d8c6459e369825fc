"""How long large game trees take to expand, render and parse, and what pausing the cyclic
garbage collector during parsing saves (the baseline: parsing with the collector running).

Usage: .venv/bin/python bench/treefile_speed.py [--position X........] [--repeat 5]
Prints medians over the repeats and the ratio baseline / optimized.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from unittest import mock

from reference.games import generate
from reference.treefile import parse, render, yamlfile


def median_seconds(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--position", default="X........", help="tic-tac-toe start position")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    tree = generate("tictactoe", position=args.position)
    text = render(tree)
    print(f"tic-tac-toe from {args.position}: {len(tree):,} nodes, {len(text):,} bytes")
    expand = median_seconds(lambda: generate("tictactoe", position=args.position), args.repeat)
    write = median_seconds(lambda: render(tree), args.repeat)
    print(f"expand  median {expand:7.3f} s")
    print(f"render  median {write:7.3f} s")

    def collector_running() -> AbstractContextManager[None]:
        return nullcontext()

    paused = median_seconds(lambda: parse(text), args.repeat)
    with mock.patch.object(yamlfile, "gc_paused", collector_running):
        running = median_seconds(lambda: parse(text), args.repeat)
    print(f"parse   median {paused:7.3f} s (collector paused)")
    print(f"parse   median {running:7.3f} s (collector running, baseline)")
    print(f"speed-up {running / paused:.2f}x")


if __name__ == "__main__":
    main()
