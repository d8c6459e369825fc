"""Grading one submission: every public and hidden tree of an exercise, in the sandbox.

A plain function, so the CLI (``grader grade``) and the Celery task call the same code.
The report is the JSON document the service stores and sends to an LMS.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reference.allocation import gc_paused
from reference.exercises.model import Exercise
from reference.feedback import TreeFeedback, combine, judge
from reference.feedback import Verdict as NodeVerdict
from reference.feedback.tree_facts import KEPT_NODES
from reference.hidden import LIBRARY_FOLDER, load_library, reference_judge, wrong_for
from reference.hidden.selection import select_hidden_trees
from reference.observed import Call, Observed, Visit
from reference.observed import Return as ObservedReturn
from reference.search import Cutoff, Enter, Evaluate, Return, SearchResult
from reference.tree import Number, Tree
from reference.values import format_value
from worker.harness.local import entry_spec
from worker.sandbox import RunRecord, SandboxOptions, Verdict, run_sandboxed_trees

STDOUT_LIMIT = 8 * 1024
"""Printed output kept in a report, over all trees."""
REPLAY_LIMIT = 2000
"""Steps of each search kept in a public tree's replay."""


@dataclass(frozen=True, slots=True)
class Case:
    """One tree to grade: its name, whether it is hidden, the tree, its reference search."""

    name: str
    hidden: bool
    tree: Tree
    reference: SearchResult | None
    """The reference search of ``tree`` (kept only for trees of up to
    ``REFERENCE_KEPT_NODES`` nodes; larger ones are searched when graded)."""

    def reference_of(self, exercise: Exercise) -> SearchResult:
        return self.reference or exercise.reference(self.tree)


CASES_CACHE_SIZE = 64
REFERENCE_KEPT_NODES = KEPT_NODES
"""The judge keeps what it works out about trees up to the same size."""
_cases: OrderedDict[tuple[int, bytes, str], tuple[Exercise, list[Case]]] = OrderedDict()
_cases_lock = threading.Lock()


def cases(exercise: Exercise, key: bytes, exercises_dir: Path) -> list[Case]:
    """The exercise's public trees, then its hidden trees chosen under ``key``, each with its
    reference search.

    Choosing hidden trees runs the library's wrong implementations on candidates: it costs
    more than grading, and its result depends only on the arguments, so it is kept for the
    most recently used exercises (an exercise object is never changed once loaded)."""
    slot = (id(exercise), key, str(exercises_dir))
    with _cases_lock:
        hit = _cases.get(slot)
        if hit is not None and hit[0] is exercise:
            _cases.move_to_end(slot)
            return hit[1]
    found = [
        Case(entry.name, False, entry.tree, _kept_reference(exercise, entry.tree))
        for entry in exercise.trees
    ]
    library = load_library(exercises_dir / LIBRARY_FOLDER)
    selection = select_hidden_trees(
        exercise, key, wrong_for(exercise, library), reference_judge(exercise)
    )
    found += [
        Case(f"hidden-{i + 1}", True, item.tree, _kept_reference(exercise, item.tree))
        for i, item in enumerate(selection.trees)
    ]
    with _cases_lock:
        _cases[slot] = (exercise, found)
        while len(_cases) > CASES_CACHE_SIZE:
            _cases.popitem(last=False)
    return found


def _kept_reference(exercise: Exercise, tree: Tree) -> SearchResult | None:
    return exercise.reference(tree) if len(tree) <= REFERENCE_KEPT_NODES else None


def _run_verdict(record: RunRecord, feedback: TreeFeedback | None) -> str:
    if record.outcome.verdict is not Verdict.COMPLETED:
        return str(record.outcome.verdict)
    assert feedback is not None
    return "passed" if feedback.perfect else "failed"


def _number(value: object) -> object:
    if isinstance(value, int | float) or value is None:
        return value
    return format_value(value)  # type: ignore[arg-type]


def _shown(value: Number | None) -> str | None:
    return None if value is None else format_value(value)


def _window(alpha: Number | None, beta: Number | None, depth: int | None) -> dict[str, Any]:
    found = {"alpha": _shown(alpha), "beta": _shown(beta), "depth": depth}
    return {key: value for key, value in found.items() if value is not None}


def _student_steps(tree: Tree, observed: Observed) -> list[dict[str, Any]]:
    """The student's search as the replay shows it: entries, evaluations and returns.

    Questions that only find the way (terminal_test, actions, ...) are left out, so that a
    correct search has the reference's steps. A node scored without a call of an entry
    function (a leaf's utility asked in its parent's loop) is entered and left around it."""
    steps: list[dict[str, Any]] = []
    called: set[str] = set()
    for event in observed.events:
        if isinstance(event, Call):
            called.add(event.node)
            window = _window(event.alpha, event.beta, event.depth)
            steps.append({"node": event.node, "event": "enter", **window})
        elif isinstance(event, ObservedReturn):
            value = _shown(event.value) if event.problem is None else event.shown
            steps.append({"node": event.node, "event": "exit", "value": value})
        elif isinstance(event, Visit) and event.method in ("utility", "eval"):
            node = tree.nodes.get(event.node)
            known = None if node is None else node.utility if node.is_leaf else node.heuristic
            evaluate = {"node": event.node, "event": "evaluate", "value": _shown(known)}
            if event.node in called:
                steps.append(evaluate)
            else:
                exit_ = {"node": event.node, "event": "exit", "value": _shown(known)}
                steps += [{"node": event.node, "event": "enter"}, evaluate, exit_]
        if len(steps) > REPLAY_LIMIT:
            break
    return steps


def _reference_steps(result: SearchResult) -> list[dict[str, Any]]:
    """The reference search in the same steps; a cut-off is told on the return it causes."""
    steps: list[dict[str, Any]] = []
    cutoffs: dict[str, Cutoff] = {}
    for event in result.trace:
        if isinstance(event, Enter):
            window = _window(event.alpha, event.beta, None)
            steps.append({"node": event.node, "event": "enter", **window})
        elif isinstance(event, Evaluate):
            steps.append({"node": event.node, "event": "evaluate", "value": _shown(event.value)})
        elif isinstance(event, Cutoff):
            cutoffs[event.node] = event
        elif isinstance(event, Return):
            step: dict[str, Any] = {
                "node": event.node,
                "event": "exit",
                "value": _shown(event.value),
            }
            cutoff = cutoffs.pop(event.node, None)
            if cutoff is not None:
                left, relation, right = cutoff.rule.split(" ")
                step["cutoff"] = (
                    f"{left} = {format_value(cutoff.value)} {relation} "
                    f"{right} = {format_value(cutoff.bound)}"
                )
                step["pruned"] = list(cutoff.pruned)
            steps.append(step)
        if len(steps) > REPLAY_LIMIT:
            break
    return steps


def _replay(tree: Tree, observed: Observed, reference: SearchResult) -> dict[str, Any]:
    """Both searches of a public tree, step by step, for the feedback page's replay."""
    student = _student_steps(tree, observed)
    expected = _reference_steps(reference)
    return {
        "student": student[:REPLAY_LIMIT],
        "reference": expected[:REPLAY_LIMIT],
        "truncated": len(student) > REPLAY_LIMIT or len(expected) > REPLAY_LIMIT,
        "decision_style": observed.decision_style,
    }


def _case_report(
    case: Case,
    record: RunRecord,
    feedback: TreeFeedback | None,
    replay: dict[str, Any] | None = None,
) -> dict[str, Any]:
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
    if replay is not None:
        report["replay"] = replay
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


_HIDDEN_REASONS = (
    (NodeVerdict.EXTRA, "nodes searched that the reference prunes"),
    (NodeVerdict.MISSED, "nodes the reference searches were not searched"),
    (NodeVerdict.REPEATED, "nodes searched twice"),
    (NodeVerdict.OUT_OF_ORDER, "children searched out of order"),
    (NodeVerdict.WRONG_BOUNDS, "wrong alpha/beta passed down"),
    (NodeVerdict.WRONG_VALUE, "wrong values returned"),
)
"""What a hidden tree's reason may say, in this fixed order: the kinds of mistakes, never
how many nodes had them nor which came first (either would tell of the tree's shape)."""


def _abstract(feedback: TreeFeedback) -> str:
    found = feedback.counts()
    wrong = [reason for verdict, reason in _HIDDEN_REASONS if found[verdict]]
    if feedback.value_ok is False:
        wrong.insert(0, "wrong root value")
    return "; ".join(wrong) or "wrong answer"


def grade(
    exercise: Exercise,
    source: str,
    filename: str,
    *,
    key: bytes,
    exercises_dir: Path,
    options: SandboxOptions | None = None,
    draw: str = "",
) -> dict[str, Any]:
    """The full report of ``source`` on every tree of ``exercise``.

    ``draw`` names this grading's draw of hidden trees: the same draw (a regrade of the same
    submission) gets the same hidden trees, another draw others."""
    all_feedback: list[TreeFeedback | None] = []
    reports = []
    stdout = ""
    cpu = wall = rss = 0
    first_problem: tuple[Case, RunRecord] | None = None
    found = cases(exercise, key, exercises_dir)
    runs = [
        (
            case.tree,
            entry_spec(
                exercise.algorithm, exercise.entry_points, case.tree, exercise.options.depth_limit
            ),
        )
        for case in found
    ]
    # The traces and their judgements are large and acyclic: the collector's passes over
    # them would cost a fifth of the time. Public trees run first (see worker.sandbox.session).
    with gc_paused():
        records = run_sandboxed_trees(runs, source, filename, exercise.limits, options=options)
    for case, record in zip(found, records, strict=False):
        with gc_paused():
            completed = record.outcome.verdict is Verdict.COMPLETED
            reference = case.reference_of(exercise) if completed or not case.hidden else None
            feedback = None
            if completed and reference is not None:
                feedback = judge(case.tree, reference, record.observed, exercise.scoring)
            # Hidden trees never get a replay: it would show their shape and values.
            replay = None
            if not case.hidden and reference is not None:
                replay = _replay(case.tree, record.observed, reference)
        if feedback is None and first_problem is None:
            first_problem = (case, record)
        all_feedback.append(feedback)
        reports.append(_case_report(case, record, feedback, replay))
        if not case.hidden and len(stdout) < STDOUT_LIMIT:
            stdout += record.stdout
        if not case.hidden:
            # What a hidden tree's run cost is the student's code to choose (sleep or
            # allocate in proportion to a value it read): only public trees are counted.
            cpu += record.usage.cpu_ms
            wall += record.usage.wall_ms
            rss = max(rss, record.usage.max_rss_kb)
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


def _overall(
    reports: list[dict[str, Any]], problem: tuple[Case, RunRecord] | None
) -> tuple[str, str]:
    if problem is not None:
        case, record = problem
        outcome = record.outcome
        if case.hidden:
            # Its message and line are the student's to choose (an exception's text can
            # carry anything the code saw): of a hidden tree, only the verdict is told.
            words = str(outcome.verdict).replace("_", " ")
            return str(outcome.verdict), f"{words} on a hidden tree ({case.name})"
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
