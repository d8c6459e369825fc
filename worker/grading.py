"""Grading one submission: every public and hidden tree of an exercise, in the sandbox.

A plain function, so the CLI (``grader grade``) and the Celery task call the same code.
The report is the JSON document the service stores and sends to an LMS.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reference.allocation import gc_paused
from reference.exercises.model import Exercise
from reference.feedback import TreeFeedback, combine, judge
from reference.hidden import LIBRARY_FOLDER, load_library, reference_judge, wrong_for
from reference.hidden.selection import select_hidden_trees
from reference.tree import Tree
from reference.values import format_value
from worker.harness.local import entry_spec
from worker.sandbox import RunRecord, SandboxOptions, Verdict, run_sandboxed

STDOUT_LIMIT = 8 * 1024
"""Printed output kept in a report, over all trees."""


@dataclass(frozen=True, slots=True)
class Case:
    """One tree to grade: its name, whether it is hidden, the tree."""

    name: str
    hidden: bool
    tree: Tree


def cases(exercise: Exercise, key: bytes, exercises_dir: Path) -> list[Case]:
    """The exercise's public trees, then its hidden trees chosen under ``key``."""
    found = [Case(entry.name, False, entry.tree) for entry in exercise.trees]
    library = load_library(exercises_dir / LIBRARY_FOLDER)
    selection = select_hidden_trees(
        exercise, key, wrong_for(exercise, library), reference_judge(exercise)
    )
    found += [Case(f"hidden-{i + 1}", True, item.tree) for i, item in enumerate(selection.trees)]
    return found


def _run_verdict(record: RunRecord, feedback: TreeFeedback | None) -> str:
    if record.outcome.verdict is not Verdict.COMPLETED:
        return str(record.outcome.verdict)
    assert feedback is not None
    return "passed" if feedback.perfect else "failed"


def _number(value: object) -> object:
    if isinstance(value, int | float) or value is None:
        return value
    return format_value(value)  # type: ignore[arg-type]


def _case_report(case: Case, record: RunRecord, feedback: TreeFeedback | None) -> dict[str, Any]:
    verdict = _run_verdict(record, feedback)
    report: dict[str, Any] = {"name": case.name, "hidden": case.hidden, "verdict": verdict}
    if case.hidden:
        # Students learn only whether a hidden tree passed, and an abstract reason.
        if feedback is not None and not feedback.perfect:
            divergence = feedback.first_divergence
            report["message"] = "the search differs from the reference" + (
                "" if divergence is None else f" ({_abstract(feedback)})"
            )
        elif record.outcome.verdict is not Verdict.COMPLETED:
            report["message"] = str(record.outcome.verdict).replace("_", " ")
        return report
    report["message"] = record.outcome.message
    if feedback is None:
        report["nodes"] = []
        return report
    report["value"] = {
        "expected": _number(feedback.value_expected),
        "actual": _number(feedback.value_actual),
    }
    report["decision"] = {
        "expected": feedback.decision_expected,
        "actual": feedback.decision_actual,
    }
    divergence = feedback.first_divergence
    report["first_divergence"] = (
        None if divergence is None else {"node": divergence.node, "message": divergence.message}
    )
    report["score"] = feedback.score
    report["max_score"] = feedback.max_score
    report["nodes"] = [
        {
            "node": node.node,
            "verdict": str(node.verdict),
            "expected": node.expected,
            "actual": node.actual,
            "message": node.message,
        }
        for node in feedback.nodes
    ]
    return report


def _abstract(feedback: TreeFeedback) -> str:
    counts = feedback.counts()
    wrong = [
        f"{count} {verdict}"
        for verdict, count in counts.items()
        if verdict not in ("ok", "pruned", "not_observed")
    ]
    if feedback.value_ok is False:
        wrong.insert(0, "wrong root value")
    return ", ".join(wrong) or "wrong answer"


def grade(
    exercise: Exercise,
    source: str,
    filename: str,
    *,
    key: bytes,
    exercises_dir: Path,
    options: SandboxOptions | None = None,
) -> dict[str, Any]:
    """The full report of ``source`` on every tree of ``exercise``."""
    all_feedback: list[TreeFeedback | None] = []
    reports = []
    stdout = ""
    cpu = wall = rss = 0
    first_problem: RunRecord | None = None
    for case in cases(exercise, key, exercises_dir):
        spec = entry_spec(
            exercise.algorithm, exercise.entry_points, case.tree, exercise.options.depth_limit
        )
        # The trace and its judgement are large and acyclic: the collector's passes over
        # them would cost a fifth of the time.
        with gc_paused():
            record = run_sandboxed(
                case.tree, source, filename, spec, exercise.limits, options=options
            )
            feedback = None
            if record.outcome.verdict is Verdict.COMPLETED:
                feedback = judge(
                    case.tree, exercise.reference(case.tree), record.observed, exercise.scoring
                )
        if feedback is None and first_problem is None:
            first_problem = record
        all_feedback.append(feedback)
        reports.append(_case_report(case, record, feedback))
        if not case.hidden and len(stdout) < STDOUT_LIMIT:
            stdout += record.stdout
        cpu += record.usage.cpu_ms
        wall += record.usage.wall_ms
        rss = max(rss, record.usage.max_rss_kb)
        if record.outcome.verdict is Verdict.COMPILE_ERROR:
            break  # the same file fails to compile on every tree
    total = combine(all_feedback, exercise.scoring)
    verdict, message = _overall(reports, first_problem)
    return {
        "exercise": exercise.slug,
        "verdict": verdict,
        "score": total.score,
        "max_score": total.max_score,
        "message": message,
        "stdout": stdout[:STDOUT_LIMIT],
        "usage": {"cpu_ms": cpu, "wall_ms": wall, "max_rss_kb": rss},
        "cases": reports,
    }


def _overall(reports: list[dict[str, Any]], problem: RunRecord | None) -> tuple[str, str]:
    if problem is not None:
        outcome = problem.outcome
        where = ""
        if outcome.line is not None:
            where = f" (line {outcome.line}" + (
                f", column {outcome.column})" if outcome.column is not None else ")"
            )
        return str(outcome.verdict), f"{outcome.message}{where}"
    failed = [report["name"] for report in reports if report["verdict"] != "passed"]
    if not failed:
        return "passed", f"all {len(reports)} trees passed"
    return (
        "failed",
        f"{len(failed)} of {len(reports)} trees differ from the reference: " + ", ".join(failed),
    )
