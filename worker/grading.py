"""Grading one submission: every public and hidden tree of an exercise, in the sandbox.

A plain function, so the CLI (``grader grade``) and the Celery task call the same code.
Here the trees are prepared, run in the sandbox and judged; the report, a
:class:`reference.report.Report`, is built from what they gave by
:mod:`reference.reporting` (the sandbox's records become its plain values here, in
:func:`tree_run`) and fitted to its limits there, once. The service stores its JSON
document and sends it to an LMS.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from reference.algorithms import ALGORITHMS
from reference.allocation import gc_paused
from reference.contracts import DEFAULT_CONTRACT
from reference.diagnosis.suspects import AddedSuspect
from reference.exercises.model import Exercise
from reference.feedback import TreeFeedback, combine, judge
from reference.feedback.fix_site import StudentCode
from reference.report import Report, RunVerdict, Usage
from reference.reporting import steps
from reference.reporting.cases import case_report, hidden_reasons, not_run, reason_words
from reference.reporting.limits import fit
from reference.reporting.overall import overall, stopped_because, where
from reference.reporting.runs import RunEnd, TreeRun
from reference.reporting.scores import hidden_credits, total_parts
from reference.search import SearchResult
from worker.diagnosis import diagnosis_of
from worker.harness.local import entry_spec
from worker.sandbox import (
    RunRecord,
    SandboxOptions,
    SandboxOutcome,
    SandboxVerdict,
    run_sandboxed_trees,
)
from worker.trees import Draw, cases, prepared


def tree_run(name: str, hidden: bool, record: RunRecord) -> TreeRun:
    """What the run ``record`` of tree ``name`` gives the report, in plain values."""
    return TreeRun(name, hidden, run_end(record.outcome), record.observed)


def run_end(outcome: SandboxOutcome) -> RunEnd:
    """How a sandboxed run ended, as the report is told it."""
    return RunEnd(outcome.verdict.run_verdict, outcome.message, outcome.line, outcome.column)


def grade(
    exercise: Exercise,
    source: str,
    filename: str,
    *,
    key: bytes,
    exercises_dir: Path,
    options: SandboxOptions | None = None,
    draw: str | Draw = "",
    public_only: bool = False,
    call_lines: bool = True,
    diagnose: bool = True,
    added: Sequence[AddedSuspect] = (),
) -> Report:
    """The full report of ``source`` on every tree of ``exercise`` (with ``public_only``, on
    its public trees alone: a student's check of a draft, which never runs a hidden tree).

    ``draw`` is this grading's draw of hidden trees (see :mod:`worker.trees`): one taken
    ready, or the name of one to make now (the same name, as a regrade of the same
    submission gives, draws the same hidden trees). The source is compiled
    here, on the trusted side, before any child runs; every tree of the exercise is in the
    report, those not run as ``not_run``. The report is valid JSON whatever the student's
    code did (see :mod:`reference.report`), built by :mod:`reference.reporting` and fitted
    to its limits (:func:`reference.reporting.limits.fit`). ``call_lines``: record the
    line each call of the student's search functions was made from (the first divergence's
    line).
    ``diagnose``: a report that did not pass carries its diagnosis (see
    :mod:`worker.diagnosis`; off, only to measure grading without it), against the
    library and the ``added`` wrong implementations of the exercise's instructors."""
    found = cases(exercise, key, exercises_dir, draw, public_only=public_only)
    draw_name = draw.name if isinstance(draw, Draw) else draw
    reasons = hidden_reasons(exercise)
    runs = [
        (
            case.tree,
            replace(
                entry_spec(
                    exercise.algorithm,
                    exercise.entry_points,
                    case.tree,
                    exercise.options.depth_limit,
                    contract=exercise.contract,
                    seed=f"{draw_name}/{case.name}",
                ),
                call_lines=call_lines,
            ),
        )
        for case in found
    ]
    # The traces and their judgements are large and acyclic: the collector's passes over
    # them would cost a fifth of the time. Public trees run first (see
    # worker.sandbox.session). The sandbox compiles the file itself before any child runs.
    with gc_paused():
        records = run_sandboxed_trees(runs, source, filename, exercise.limits, options=options)
    compile_error = None
    if records and records[-1].outcome.verdict is SandboxVerdict.COMPILE_ERROR:
        compile_error = run_end(records.pop().outcome)
    all_feedback: list[TreeFeedback | None] = []
    reports = []
    runs_told = [
        tree_run(case.name, case.hidden, record)
        for case, record in zip(found, records, strict=False)
    ]
    first_problem: TreeRun | None = None
    references: dict[str, SearchResult] = {}
    # Where a public tree's first divergence should be fixed is read off the source; a
    # course's contract calls its functions otherwise, so only the textbook's is read.
    code = None
    if exercise.contract.name == DEFAULT_CONTRACT:
        code = StudentCode(source, ALGORITHMS[exercise.algorithm], exercise.entry_points)
    for case, record, run in zip(found, records, runs_told, strict=False):
        with gc_paused():
            completed = record.outcome.verdict is SandboxVerdict.COMPLETED
            reference = case.reference_of(exercise) if completed or not case.hidden else None
            feedback = None
            if completed and reference is not None:
                references[case.name] = reference
                feedback = judge(case.tree, reference, record.observed, exercise.scoring)
            # Hidden trees never get a replay: it would show their shape and values.
            replay = None
            if not case.hidden and reference is not None:
                replay = steps.replay(case.tree, record.observed, reference)
        if feedback is None and first_problem is None:
            first_problem = run
        all_feedback.append(feedback)
        told = None if case.hidden else code
        reports.append(case_report(run, feedback, replay, reasons, exercise.scoring, told))
    unrun = found[len(records) :]
    if unrun:
        last = runs_told[-1] if runs_told else None
        budget = exercise.limits.submission_budget
        reason = stopped_because(compile_error is not None, last, budget)
        reports += [not_run(case.name, case.hidden, reason) for case in unrun]
        all_feedback += [None] * len(unrun)
    total = combine(all_feedback, exercise.scoring, hidden=[case.hidden for case in found])
    verdict, message = overall(reports, first_problem, compile_error, len(unrun))
    end = where(first_problem, compile_error)
    # What a hidden tree's run printed and cost is the student's code to choose (sleep or
    # allocate in proportion to a value it read): only public trees are told and counted.
    public = [record for case, record in zip(found, records, strict=False) if not case.hidden]
    stdout = "".join(record.stdout for record in public)
    printed = sum(max(record.stdout_total, len(record.stdout.encode())) for record in public)
    dropped = printed - len(stdout.encode())
    report = Report(
        exercise=exercise.slug,
        verdict=verdict,
        score=total.score,
        max_score=total.max_score,
        score_parts=total_parts(total, hidden_credits(exercise.scoring, reason_words(exercise))),
        message=message,
        line=end.line,
        column=end.column,
        stdout=stdout,
        stdout_dropped=dropped if dropped > 0 else None,
        usage=Usage(
            cpu_ms=sum(record.usage.cpu_ms for record in public),
            wall_ms=sum(record.usage.wall_ms for record in public),
            max_rss_kb=max((record.usage.max_rss_kb for record in public), default=0),
        ),
        cases=reports,
    )
    if diagnose and report.verdict is not RunVerdict.PASSED:
        graded = [
            (case.name, case.hidden, case.tree, record)
            for case, record in zip(found, records, strict=False)
        ]
        library = prepared(exercise, key, exercises_dir).library
        report.diagnosis = diagnosis_of(
            exercise, library, graded, references=references, added=added
        )
    return fit(report)
