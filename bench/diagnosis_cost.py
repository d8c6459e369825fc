"""What diagnosing a submission costs beside grading it.

Grades the same submissions (a wrong and a correct one per exercise, and two written for
the tests: a search the library lacks, and one with two of its mistakes) as ``grader
grade`` does, through the real sandbox (``worker.grading.grade``: public and hidden trees,
judging, the report), and diagnoses them (:func:`reference.diagnosis.diagnose`) on the
same trees, with the grading's reference searches, as the worker does. The student's
signatures are made from the harness's record of each tree, run in process beforehand
(the grading has that record in hand; making the signatures is timed).

Each round draws its own hidden trees, as every grading does: the pool's catchers are the
same objects from round to round, the fresh trees are new. The diagnosis is timed:

* **steady**: the public trees' and the pool catchers' signatures kept from earlier
  rounds (as on a worker that has graded the exercise before), the fresh trees new;
* **cold**: nothing kept (the worker's first grading of the exercise).

Prints medians of the rounds, wall and CPU of this process (the grading's sandboxed
children's CPU is not in it), and the ratio to grading without the diagnosis. The issue's
target: at most a quarter of grading. A cold diagnosis happens only in a worker's first
grading of the exercise, which is a cold grading too (it builds the exercise's hidden-tree
pool): its ratio is given to a warm grading and to that cold one (``cold grade``: the
grading with the worker's kept exercise and pool forgotten, without the diagnosis). Then
the whole grading as the worker does it (``grade`` adds a diagnosis to a report that did
not pass), steady, beside the grading without it, on the same draw.

    .venv/bin/python bench/diagnosis_cost.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reference.diagnosis import (  # noqa: E402
    Diagnosis,
    clear_signatures,
    diagnose,
    observed_signature,
)
from reference.exercises import load_catalog  # noqa: E402
from reference.exercises.model import Exercise  # noqa: E402
from reference.hidden import DEVELOPMENT_KEY, Implementation, load_library, pools  # noqa: E402
from reference.observed import Observed  # noqa: E402
from reference.search import SearchResult  # noqa: E402
from reference.tree import Tree  # noqa: E402
from worker import trees as worker_trees  # noqa: E402
from worker.grading import grade  # noqa: E402
from worker.harness.local import entry_spec, run_local  # noqa: E402
from worker.trees import cases  # noqa: E402

EXERCISES = ROOT / "exercises"
LIBRARY = EXERCISES / "implementations"
DRAW = "diagnosis-bench"
SUBMISSIONS = (
    ("aima-fig5.2-alphabeta", "alphabeta/wrong_alpha_never_updated.py"),
    ("aima-fig5.2-alphabeta", "alphabeta/correct_fail_soft.py"),
    ("aima-fig5.2-minimax", "minimax/wrong_return_in_loop.py"),
    ("aima-fig5.2-minimax", "minimax/correct_plain.py"),
    ("grundy-7-negamax", "negamax/wrong_no_negation.py"),
    ("grundy-7-negamax", "negamax/correct_plain.py"),
    ("expectimax-dice", "expectimax/wrong_average.py"),
    ("expectimax-dice", "expectimax/correct_expectimax.py"),
    ("tictactoe-seed-alphabeta", "alphabeta/wrong_alpha_never_updated.py"),
    ("tictactoe-seed-alphabeta", "alphabeta/correct_fail_soft.py"),
    ("aima-fig5.2-alphabeta", "tests:alphabeta_prunes_only_at_max.py"),
    ("aima-fig5.2-alphabeta", "tests:alphabeta_two_mistakes.py"),
)
WRITTEN = ROOT / "tests" / "reference" / "sources"
"""Submissions written for the tests (``tests:`` above)."""


def _timed(work: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU milliseconds of one call of ``work``."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def _diagnosis(
    observed: dict[str, Observed],
    trees: dict[str, Tree],
    hidden: set[str],
    references: dict[str, SearchResult],
    exercise: Exercise,
    library: list[Implementation],
) -> Diagnosis | None:
    student = {name: observed_signature(seen) for name, seen in observed.items()}
    return diagnose(student, trees, exercise, library, hidden=hidden, references=references)


def _source(path: str) -> str:
    if path.startswith("tests:"):
        return (WRITTEN / path.removeprefix("tests:")).read_text(encoding="utf-8")
    return (LIBRARY / path).read_text(encoding="utf-8")


def _prepared(
    exercise: Exercise, source: str, draw: str
) -> tuple[dict[str, Observed], dict[str, Tree], set[str], dict[str, SearchResult]]:
    """One draw's trees, the student's record on each, and the reference searches."""
    found = cases(exercise, DEVELOPMENT_KEY, EXERCISES, draw)
    observed: dict[str, Observed] = {}
    for case in found:
        spec = entry_spec(
            exercise.algorithm, exercise.entry_points, case.tree, exercise.options.depth_limit
        )
        observed[case.name] = run_local(case.tree, source, spec).observed
    return (
        observed,
        {case.name: case.tree for case in found},
        {case.name for case in found if case.hidden},
        {case.name: case.reference_of(exercise) for case in found},
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    catalog = load_catalog(EXERCISES)
    library = load_library(LIBRARY)
    print(f"medians of {rounds} rounds; ms; ratio = diagnosis / grading (wall)")
    header = f"{'submission':62} {'trees':>5} {'grade wall':>10} {'cpu':>6}"
    print(
        f"{header} {'steady':>7} {'cpu':>6} {'ratio':>6} {'cold':>7} {'ratio':>6} "
        f"{'cold grade':>10} {'ratio':>6}  found"
    )
    wholes: list[tuple[str, float, float]] = []
    for slug, path in SUBMISSIONS:
        exercise = catalog.get(slug)
        source = _source(path)
        grading = partial(
            grade, exercise, source, "submission.py", key=DEVELOPMENT_KEY,
            exercises_dir=EXERCISES, diagnose=False,
        )  # fmt: skip
        grading(draw="warm-up")  # the fork-server and the exercise's pool, once beforehand
        draws = [_prepared(exercise, source, f"bench-{index}") for index in range(rounds + 1)]
        result = _diagnosis(*draws[0], exercise, library)  # keeps the catchers' signatures
        graded, steady, cold, whole = [], [], [], []
        for index in range(1, rounds + 1):
            draw = f"bench-{index}"
            graded.append(_timed(partial(grading, draw=draw)))
            whole.append(_timed(partial(grading, draw=draw, diagnose=True)))
            steady.append(_timed(partial(_diagnosis, *draws[index], exercise, library)))
        first_gradings = []
        for index in range(1, rounds + 1):
            clear_signatures()
            cold.append(_timed(partial(_diagnosis, *draws[index], exercise, library)))
            worker_trees._prepared.clear()
            pools._kept.clear()
            first_gradings.append(_timed(partial(grading, draw=f"bench-{index}")))
        cold_grade = statistics.median(wall for wall, _ in first_gradings)
        grade_wall = statistics.median(wall for wall, _ in graded)
        grade_cpu = statistics.median(cpu for _, cpu in graded)
        steady_wall = statistics.median(wall for wall, _ in steady)
        steady_cpu = statistics.median(cpu for _, cpu in steady)
        cold_wall = statistics.median(wall for wall, _ in cold)
        wholes.append((slug + " " + path, grade_wall, statistics.median(w for w, _ in whole)))
        if result is None:
            what = "none (correct)"
        elif result.composed is not None:
            what = "two: " + " + ".join(
                found.implementations[0]
                for found in (result.composed.first, result.composed.second)
            )
        elif not result.misconceptions:
            what = "no known mistake fits"
        else:
            first = result.misconceptions[0]
            what = f"{first.implementations[0]} {first.matched}/{first.trees}"
            what += "" if result.exact else f" (nearest, closeness {first.closeness:.2f})"
        print(
            f"{slug + ' ' + path:62} {len(draws[0][1]):5} {grade_wall:10.1f} {grade_cpu:6.1f} "
            f"{steady_wall:7.1f} {steady_cpu:6.1f} {steady_wall / grade_wall:6.3f} "
            f"{cold_wall:7.1f} {cold_wall / grade_wall:6.3f} {cold_grade:10.1f} "
            f"{cold_wall / cold_grade:6.3f}  {what}"
        )

    print()
    print("whole grading (grade), wall ms, steady: without the diagnosis, with it")
    print(f"{'submission':62} {'without':>8} {'with':>8} {'+%':>6}")
    for name, without, with_it in wholes:
        print(f"{name:62} {without:8.1f} {with_it:8.1f} {(with_it / without - 1) * 100:6.1f}")


if __name__ == "__main__":
    main()
