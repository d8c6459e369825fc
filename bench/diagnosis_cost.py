"""What diagnosing a submission costs beside grading it.

Grades the same submissions (a wrong and a correct one per exercise) as ``grader grade``
does, through the real sandbox (``worker.grading.grade``: public and hidden trees, judging,
the report), and diagnoses them (:func:`reference.diagnosis.diagnose`) on the same trees:
the student's signatures are taken from the harness's record of each tree, run in process
beforehand (the grading has that record in hand; making the signatures is timed). The
diagnosis is timed cold (no kept signature: the library runs on every tree) and warm (the
trees' signatures kept, as when the exercise was graded lately). Prints medians of the
rounds, wall and CPU of this process (the grading's sandboxed children's CPU is not in
it), and the ratio to grading without the diagnosis. The issue's target: at most a quarter
of grading. Then the whole grading as the worker does it, with its diagnosis (``grade``
adds one to a report that did not pass), cold and warm, beside the grading without it.

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
from reference.hidden import DEVELOPMENT_KEY, Implementation, load_library  # noqa: E402
from reference.observed import Observed  # noqa: E402
from reference.tree import Tree  # noqa: E402
from worker.grading import cases, grade  # noqa: E402
from worker.harness.local import entry_spec, run_local  # noqa: E402

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
)


def _timed(work: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU milliseconds of one call of ``work``."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def _diagnosis(
    observed: dict[str, Observed],
    trees: dict[str, Tree],
    exercise: Exercise,
    library: list[Implementation],
    hidden: set[str],
) -> Diagnosis | None:
    student = {name: observed_signature(seen) for name, seen in observed.items()}
    return diagnose(student, trees, exercise, library, hidden=hidden)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    catalog = load_catalog(EXERCISES)
    library = load_library(LIBRARY)
    print(f"medians of {rounds} rounds; ms; ratio = diagnosis / grading (wall)")
    header = f"{'submission':58} {'trees':>5} {'grade wall':>10} {'cpu':>6}"
    print(f"{header} {'cold wall':>9} {'cpu':>6} {'ratio':>6} {'warm wall':>9} {'ratio':>6}  found")
    wholes: list[tuple[str, float, float, float]] = []
    for slug, path in SUBMISSIONS:
        exercise = catalog.get(slug)
        source = (LIBRARY / path).read_text(encoding="utf-8")
        found = cases(exercise, DEVELOPMENT_KEY, EXERCISES, DRAW)
        trees = {case.name: case.tree for case in found}
        hidden = {case.name for case in found if case.hidden}
        observed: dict[str, Observed] = {}
        for case in found:
            spec = entry_spec(
                exercise.algorithm, exercise.entry_points, case.tree, exercise.options.depth_limit
            )
            observed[case.name] = run_local(case.tree, source, spec).observed

        grading = partial(
            grade, exercise, source, "submission.py", key=DEVELOPMENT_KEY,
            exercises_dir=EXERCISES, draw=DRAW, diagnose=False,
        )  # fmt: skip
        whole = partial(grading, diagnose=True)
        diagnosis = partial(_diagnosis, observed, trees, exercise, library, hidden)

        grading()  # the fork-server and the exercise's pool, once beforehand
        result = diagnosis()
        graded, cold, warm, whole_cold, whole_warm = [], [], [], [], []
        for _ in range(rounds):
            graded.append(_timed(grading))
            clear_signatures()
            cold.append(_timed(diagnosis))
            warm.append(_timed(diagnosis))
            clear_signatures()
            whole_cold.append(_timed(whole))
            whole_warm.append(_timed(whole))
        wholes.append(
            (slug + " " + path, statistics.median(w for w, _ in graded),
             statistics.median(w for w, _ in whole_cold),
             statistics.median(w for w, _ in whole_warm))
        )  # fmt: skip
        grade_wall = statistics.median(wall for wall, _ in graded)
        grade_cpu = statistics.median(cpu for _, cpu in graded)
        cold_wall = statistics.median(wall for wall, _ in cold)
        cold_cpu = statistics.median(cpu for _, cpu in cold)
        warm_wall = statistics.median(wall for wall, _ in warm)
        if result is None:
            what = "none (correct)"
        else:
            first = result.misconceptions[0]
            what = f"{first.implementations[0]} {first.matched}/{first.trees}"
        print(
            f"{slug + ' ' + path:58} {len(trees):5} {grade_wall:10.1f} {grade_cpu:6.1f} "
            f"{cold_wall:9.1f} {cold_cpu:6.1f} {cold_wall / grade_wall:6.3f} "
            f"{warm_wall:9.1f} {warm_wall / grade_wall:6.3f}  {what}"
        )

    print()
    print("whole grading (grade), wall ms: without the diagnosis, with it cold and warm")
    print(f"{'submission':58} {'without':>8} {'cold':>8} {'+%':>6} {'warm':>8} {'+%':>6}")
    for name, without, with_cold, with_warm in wholes:
        print(
            f"{name:58} {without:8.1f} {with_cold:8.1f} {(with_cold / without - 1) * 100:6.1f} "
            f"{with_warm:8.1f} {(with_warm / without - 1) * 100:6.1f}"
        )


if __name__ == "__main__":
    main()
