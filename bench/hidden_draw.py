"""What drawing a grading's own hidden trees costs, against what the grading costs.

For each shipped exercise: the pool of catchers, built once per exercise and key (judged
against the library's wrong implementations); then, per grading, the draw (catchers and
fresh trees, with the fresh trees' reference searches); and the whole grading of a correct
implementation in the sandbox, draw included. Medians over ``--rounds`` gradings, each
with a new draw; the ratio is the draw's share of the grading.

    .venv/bin/python bench/hidden_draw.py [--rounds 15] [--exercise SLUG ...]
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
from reference.hidden import (  # noqa: E402
    DEVELOPMENT_KEY,
    LIBRARY_FOLDER,
    build_pool,
    correct_for,
    draw_hidden_trees,
    load_library,
    reference_judge,
    wrong_for,
)
from worker.grading import grade  # noqa: E402

EXERCISES = ROOT / "exercises"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--exercise", action="append", default=[])
    args = parser.parse_args()
    catalog = load_catalog(EXERCISES)
    library = load_library(EXERCISES / LIBRARY_FOLDER)
    slugs = args.exercise or catalog.slugs()
    print(
        f"{'exercise':32} {'pool':>5} {'build ms':>9} {'draw ms':>8} {'grade ms':>9} "
        f"{'draw/grade':>10}"
    )
    ratios = []
    for slug in slugs:
        exercise = catalog.get(slug)
        started = time.perf_counter()
        pool = build_pool(
            exercise, DEVELOPMENT_KEY, wrong_for(exercise, library), reference_judge(exercise)
        )
        built = time.perf_counter() - started
        correct = next(iter(correct_for(exercise, library).values()))
        grade(exercise, correct, "warm.py", key=DEVELOPMENT_KEY, exercises_dir=EXERCISES)
        draws, gradings = [], []
        for number in range(args.rounds):
            name = f"bench-{number}"
            started = time.perf_counter()
            for hidden in draw_hidden_trees(exercise, DEVELOPMENT_KEY, pool, name):
                if hidden.catcher is None:
                    exercise.reference(hidden.tree)
            draws.append(time.perf_counter() - started)
            started = time.perf_counter()
            grade(
                exercise,
                correct,
                "correct.py",
                key=DEVELOPMENT_KEY,
                exercises_dir=EXERCISES,
                draw=name,
            )
            gradings.append(time.perf_counter() - started)
        draw, graded = statistics.median(draws), statistics.median(gradings)
        ratios.append(draw / graded)
        print(
            f"{slug:32} {len(pool.catchers):5} {built * 1000:9.0f} {draw * 1000:8.1f} "
            f"{graded * 1000:9.1f} {draw / graded:10.2f}"
        )
    print(f"median draw/grade over {len(ratios)} exercises: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
