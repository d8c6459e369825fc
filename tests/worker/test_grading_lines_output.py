"""Errors and divergences point at lines of the student's file, and printed output does not
cost the grade: through the real sandbox, as ``grader grade`` and the worker grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference.exercises import load_catalog
from reference.hidden import DEVELOPMENT_KEY
from reference.report import OUTPUT_CAP, Report, RunVerdict
from reference.reporting.limits import LIMITS
from worker.grading import grade

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
LIBRARY = EXERCISES / "implementations"
CATALOG = load_catalog(EXERCISES)
MINIMAX = CATALOG.get("aima-fig5.2-minimax")
ALPHABETA = CATALOG.get("aima-fig5.2-alphabeta")
CORRECT_MINIMAX = (LIBRARY / "minimax" / "correct_plain.py").read_text(encoding="utf-8")


def graded(source: str, exercise: object = MINIMAX, **options: bool) -> Report:
    return grade(
        exercise,  # type: ignore[arg-type]
        source,
        "submission.py",
        key=DEVELOPMENT_KEY,
        exercises_dir=EXERCISES,
        draw="lines-and-output",
        **options,
    )


def line_of(source: str, text: str) -> int:
    """The number of the line of ``source`` that holds ``text``."""
    return next(n for n, line in enumerate(source.splitlines(), 1) if text in line)


# -- output --------------------------------------------------------------------------------


def test_a_correct_search_that_prints_200_kib_passes_with_a_cut_note() -> None:
    printed = 200 * 1024
    report = graded(f"print('x' * {printed - 1})\n" + CORRECT_MINIMAX)
    assert report.verdict is RunVerdict.PASSED
    assert report.score == report.max_score == 100
    assert all(case.verdict is RunVerdict.PASSED for case in report.cases)
    assert report.stdout == "x" * LIMITS.stdout_kept
    # Each public tree (one here) printed it all; what is not kept is counted.
    assert report.stdout_dropped == printed - LIMITS.stdout_kept
    assert report.to_json()["stdout_dropped"] == printed - LIMITS.stdout_kept


def test_output_under_what_is_kept_is_not_cut() -> None:
    report = graded("print('hello')\n" + CORRECT_MINIMAX)
    assert report.stdout == "hello\n" and report.stdout_dropped is None
    assert "stdout_dropped" not in report.to_json()


def test_a_flood_past_the_hard_cap_ends_the_tree_as_output_limit() -> None:
    flood = "import sys\nfor _ in range(1 + OUT // 65536):\n    sys.stdout.write('y' * 65536)\n"
    report = graded(flood.replace("OUT", str(OUTPUT_CAP)) + CORRECT_MINIMAX)
    assert report.verdict is RunVerdict.OUTPUT_LIMIT
    first = report.cases[0]
    assert first.verdict is RunVerdict.OUTPUT_LIMIT and first.score is None
    assert "more than 8 MiB on one tree" in report.message
    assert all(case.verdict is RunVerdict.NOT_RUN for case in report.cases[1:])
    assert report.score == 0


def test_just_under_the_hard_cap_still_passes() -> None:
    under = OUTPUT_CAP - 1024 * 1024
    report = graded(f"import sys\nsys.stdout.write('z' * {under})\n" + CORRECT_MINIMAX)
    assert report.verdict is RunVerdict.PASSED
    assert report.stdout_dropped == under - LIMITS.stdout_kept


# -- lines ---------------------------------------------------------------------------------


def test_a_compile_error_carries_its_line_and_column() -> None:
    report = graded("import math\n\ndef max_value(game, state)\n    return 1\n")
    assert report.verdict is RunVerdict.COMPILE_ERROR
    assert (report.line, report.column) == (3, 27)
    assert "(line 3, column 27)" in report.message


def test_a_runtime_error_carries_its_line_on_the_report_and_its_tree() -> None:
    source = CORRECT_MINIMAX.replace(
        'return game.utility(state, "MAX")', 'return game.utility(state, "MAX") / 0', 1
    )
    report = graded(source)
    line = line_of(source, "/ 0")
    assert report.verdict is RunVerdict.RUNTIME_ERROR
    assert report.line == line and report.column is None
    public = report.cases[0]
    assert (public.verdict, public.line) == (RunVerdict.RUNTIME_ERROR, line)
    # A hidden tree's line is the student's code's to choose: never told.
    assert all(case.line is None for case in report.cases if case.hidden)


def test_the_first_divergence_names_the_line_that_made_the_call() -> None:
    source = (LIBRARY / "alphabeta" / "wrong_alpha_never_updated.py").read_text(encoding="utf-8")
    report = graded(source, ALPHABETA)
    divergence = report.cases[0].first_divergence
    assert divergence is not None and divergence.node == "C"
    # C got its window from MAX's loop, which never raised alpha.
    assert divergence.line == line_of(source, "v = max(v, min_value(")
    assert all(case.first_divergence is None for case in report.cases if case.hidden)


def test_the_first_divergence_names_the_loop_where_alpha_should_have_been_raised() -> None:
    source = (LIBRARY / "alphabeta" / "wrong_alpha_never_updated.py").read_text(encoding="utf-8")
    report = graded(source, ALPHABETA)
    divergence = report.cases[0].first_divergence
    assert divergence is not None
    # MAX's loop over the children holds no alpha = max(alpha, v): the update belongs there.
    loop = line_of(source, "for action in game.actions(state):")
    assert loop == 24 and loop != divergence.line
    assert (divergence.fix_line, divergence.fix_site, divergence.fix_name) == (
        loop,
        "loop",
        "alpha",
    )
    assert report.to_json()["cases"][0]["first_divergence"]["fix_site"] == "loop"


def test_a_wrong_update_of_alpha_is_named_as_the_line_to_change() -> None:
    source = (LIBRARY / "alphabeta" / "wrong_alpha_never_updated.py").read_text(encoding="utf-8")
    source = source.replace(
        "            return v\n    return v\n\n\ndef min_value",
        "            return v\n        alpha = max(beta, v)\n    return v\n\n\ndef min_value",
    )
    report = graded(source, ALPHABETA)
    divergence = report.cases[0].first_divergence
    assert divergence is not None and divergence.fix_site == "assignment"
    assert divergence.fix_line == line_of(source, "alpha = max(beta, v)")


def test_without_recording_the_lines_the_divergence_has_none() -> None:
    source = (LIBRARY / "alphabeta" / "wrong_alpha_never_updated.py").read_text(encoding="utf-8")
    report = graded(source, ALPHABETA, call_lines=False)
    divergence = report.cases[0].first_divergence
    assert divergence is not None and divergence.node == "C" and divergence.line is None
    assert divergence.fix_line is None and divergence.fix_site is None


@pytest.mark.parametrize(
    "decorated",
    [
        "import functools\n\ndef logged(f):\n    @functools.wraps(f)\n"
        "    def inner(*args):\n        return f(*args)\n    return inner\n\n",
    ],
)
def test_a_call_through_a_decorator_still_finds_the_students_line(decorated: str) -> None:
    source = (LIBRARY / "alphabeta" / "wrong_alpha_never_updated.py").read_text(encoding="utf-8")
    source = decorated + source.replace("def min_value(", "@logged\ndef min_value(")
    report = graded(source, ALPHABETA)
    divergence = report.cases[0].first_divergence
    assert divergence is not None
    assert divergence.line == line_of(source, "v = max(v, min_value(")
