"""The submission's verdict and its sentence, from its trees' reports: the compile error,
else the first tree whose run stopped, else the trees not run, else the trees that failed
(see :class:`reference.report.RunVerdict`)."""

from __future__ import annotations

from collections.abc import Sequence

from reference.report import RunVerdict, TreeCase
from reference.reporting.runs import RunEnd, TreeRun
from reference.verdict_words import verdict_word


def overall(
    cases: Sequence[TreeCase],
    problem: TreeRun | None,
    compile_error: RunEnd | None,
    unrun: int,
) -> tuple[RunVerdict, str]:
    """The verdict of a submission whose trees' reports are ``cases`` and its sentence:
    ``problem`` is the first tree whose run stopped before its search ended, ``unrun``
    how many trees (the last ones) were not run."""
    if compile_error is not None:
        return RunVerdict.COMPILE_ERROR, compile_error.positioned
    if problem is not None:
        verdict = problem.end.verdict(False)
        if problem.hidden:
            # Its message and line are the student's to choose (an exception's text can
            # carry anything the code saw): of a hidden tree, only the verdict is told.
            return verdict, f"{verdict_word(verdict)} on a hidden tree ({problem.name})"
        return verdict, problem.end.positioned
    if unrun:
        return RunVerdict.TIME_LIMIT, (
            f"{unrun} of {len(cases)} trees were not run: "
            + (cases[-unrun].message or "").removeprefix("not run: ")
        )
    failed = [case.name for case in cases if case.verdict != RunVerdict.PASSED]
    if not failed:
        return RunVerdict.PASSED, f"all {len(cases)} trees passed"
    return (
        RunVerdict.FAILED,
        f"{len(failed)} of {len(cases)} trees differ from the reference: " + ", ".join(failed),
    )


def where(problem: TreeRun | None, compile_error: RunEnd | None) -> RunEnd:
    """The run end whose line and column the report's own names: the compile error, or
    the first tree's problem when that tree is public (a hidden tree's line is the student's
    code's to choose)."""
    if compile_error is not None:
        return compile_error
    if problem is not None and not problem.hidden:
        return problem.end
    return RunEnd()


def stopped_because(compile_error: bool, last: TreeRun | None, budget_seconds: float) -> str:
    """Why the trees after ``last``, the last tree run, were not run: the file does not
    compile, ``last`` stopped the submission, or its time (``budget_seconds``) was spent."""
    if compile_error:
        return "the file does not compile"
    if last is not None and last.end.stopped is not None and last.end.stopped.ends_run:
        where = "a hidden tree" if last.hidden else f"tree {last.name}"
        return f"the search ended with {verdict_word(last.end.stopped)} on {where}"
    return f"the submission's time ({budget_seconds:g} s for all trees) was spent"
