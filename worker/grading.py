"""Grading one submission: every public and hidden tree of an exercise, in the sandbox.

A plain function, so the CLI (``grader grade``) and the Celery task call the same code.
The report is a :class:`reference.report.Report`: the service stores its JSON document and
sends it to an LMS.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypedDict

from reference.algorithms import ALGORITHMS
from reference.allocation import gc_paused
from reference.caching import IdentityCache
from reference.diagnosis.suspects import AddedSuspect
from reference.exercises.model import Exercise, Limits, Scoring
from reference.feedback import TreeFeedback, combine, judge
from reference.feedback import Verdict as NodeVerdict
from reference.feedback.scoring import ExerciseScore, Part, Share, tree_parts
from reference.feedback.tree_facts import KEPT_NODES
from reference.hidden import LIBRARY_FOLDER, load_library, wrong_for
from reference.hidden.library import Implementation
from reference.hidden.pools import reference_pool
from reference.hidden.selection import Pool, draw_hidden_trees
from reference.observed import Call, Observed, Visit, event_line
from reference.observed import Return as ObservedReturn
from reference.report import (
    STDOUT_KEPT,
    Decision,
    Divergence,
    NodeReport,
    PartScore,
    Replay,
    Report,
    RunVerdict,
    ScoreParts,
    ShareScore,
    Step,
    TotalParts,
    TreeCase,
    Usage,
    ValueCheck,
    fit,
)
from reference.search import Cutoff, Enter, Evaluate, Return, SearchResult
from reference.tree import Number, Tree
from reference.values import format_value
from reference.verdict_words import verdict_word
from worker.diagnosis import diagnosis_of
from worker.harness.local import entry_spec
from worker.sandbox import (
    RunRecord,
    SandboxOptions,
    SandboxOutcome,
    SandboxVerdict,
    run_sandboxed_trees,
)

STDOUT_LIMIT = STDOUT_KEPT
"""Printed output kept in a report, over the public trees (the rest is counted in the
report's ``stdout_dropped`` and changes nothing else)."""
REPLAY_LIMIT = 2000
"""Steps of each search kept in a public tree's replay."""
VALUE_TEXT_LIMIT = 40
"""Characters of a value kept in a report (a fraction can have thousands of digits)."""
MESSAGE_LIMIT = 500
"""Characters of a message kept in a report."""


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


@dataclass(frozen=True, slots=True)
class Prepared:
    """What grading an exercise needs whatever the submission: its public trees and the
    pool of hidden-tree catchers, each with its kept reference search."""

    public: tuple[Case, ...]
    pool: Pool
    catchers: dict[int, SearchResult | None]
    """Each catcher's kept reference search, by its index in the pool."""
    library: tuple[Implementation, ...] = ()
    """The library of implementations (a failed search's diagnosis runs its wrong ones)."""


CASES_CACHE_SIZE = 64
REFERENCE_KEPT_NODES = KEPT_NODES
"""The judge keeps what it works out about trees up to the same size."""
_prepared: IdentityCache[dict[tuple[bytes, str], Prepared]] = IdentityCache(CASES_CACHE_SIZE)
"""Each exercise's prepared trees, by hidden-tree key and exercises folder (one of each in
a deployment, so each exercise holds one or two)."""


def prepared(exercise: Exercise, key: bytes, exercises_dir: Path) -> Prepared:
    """The public trees and the hidden-tree pool of ``exercise`` under ``key``.

    Building the pool runs the library's wrong implementations on candidates: it costs
    far more than grading, and its result depends only on the arguments, so it is kept for
    the most recently used exercises (an exercise object is never changed once loaded)."""
    kept = _prepared.get(dict, exercise)
    slot = (key, str(exercises_dir))
    hit = kept.get(slot)
    if hit is not None:
        return hit
    public = tuple(
        Case(entry.name, False, entry.tree, _kept_reference(exercise, entry.tree))
        for entry in exercise.trees
    )
    library = load_library(exercises_dir / LIBRARY_FOLDER)
    pool = reference_pool(exercise, key, wrong_for(exercise, library))
    catchers = {item.index: _kept_reference(exercise, item.tree) for item in pool.catchers}
    return kept.setdefault(slot, Prepared(public, pool, catchers, tuple(library)))


def cases(
    exercise: Exercise,
    key: bytes,
    exercises_dir: Path,
    draw: str = "",
    *,
    public_only: bool = False,
) -> list[Case]:
    """The exercise's public trees, then the hidden trees of draw ``draw`` under ``key``
    (see :mod:`reference.hidden.selection`), each with its reference search where kept;
    with ``public_only``, the public trees alone (no hidden tree is drawn)."""
    ready = prepared(exercise, key, exercises_dir)
    if public_only:
        return list(ready.public)
    hidden = [
        Case(
            item.name,
            True,
            item.tree,
            ready.catchers.get(item.catcher)
            if item.catcher is not None
            else _kept_reference(exercise, item.tree),
        )
        for item in draw_hidden_trees(exercise, key, ready.pool, draw)
    ]
    return [*ready.public, *hidden]


def _kept_reference(exercise: Exercise, tree: Tree) -> SearchResult | None:
    return exercise.reference(tree) if len(tree) <= REFERENCE_KEPT_NODES else None


def _run_verdict(record: RunRecord, feedback: TreeFeedback | None) -> RunVerdict:
    """A tree's verdict: why its run stopped, else the judgement of its search."""
    verdict = record.outcome.verdict
    assert feedback is not None or verdict is not SandboxVerdict.COMPLETED
    return verdict.judged(feedback is not None and feedback.perfect)


def _short(text: str, limit: int = VALUE_TEXT_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, saying so."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _number(value: Number | None) -> int | float | str | None:
    """A value as the report holds it: a number JSON can carry exactly (a non-finite float
    is written "inf", "-inf" or "nan" by :mod:`reference.report`), else its text."""
    if value is None or (type(value) is int and abs(value) < 2**53) or type(value) is float:
        return value
    return _shown(value)


def _shown(value: Number | None) -> str | None:
    return None if value is None else _short(format_value(value))


class _Window(TypedDict, total=False):
    """The window a step enters a node with: only what the search was given."""

    alpha: str
    beta: str
    depth: int


def _window(alpha: Number | None, beta: Number | None, depth: int | None) -> _Window:
    window: _Window = {}
    if alpha is not None:
        window["alpha"] = _short(format_value(alpha))
    if beta is not None:
        window["beta"] = _short(format_value(beta))
    if depth is not None:
        window["depth"] = depth
    return window


def _student_steps(tree: Tree, observed: Observed) -> list[Step]:
    """The student's search as the replay shows it: entries, evaluations and returns.

    Questions that only find the way (terminal_test, actions, ...) are left out, so that a
    correct search has the reference's steps. A node scored without a call of an entry
    function (a leaf's utility asked in its parent's loop) is entered and left around it."""
    steps: list[Step] = []
    called: set[str] = set()
    for event in observed.events:
        if isinstance(event, Call):
            called.add(event.node)
            window = _window(event.alpha, event.beta, event.depth)
            steps.append(Step(node=event.node, event="enter", **window))
        elif isinstance(event, ObservedReturn):
            value = _shown(event.value) if event.problem is None else _short(event.shown)
            steps.append(Step(node=event.node, event="exit", value=value))
        elif isinstance(event, Visit) and event.method in ("utility", "eval"):
            node = tree.nodes.get(event.node)
            known = None if node is None else node.utility if node.is_leaf else node.heuristic
            evaluate = Step(node=event.node, event="evaluate", value=_shown(known))
            if event.node in called:
                steps.append(evaluate)
            else:
                exit_ = Step(node=event.node, event="exit", value=_shown(known))
                steps += [Step(node=event.node, event="enter"), evaluate, exit_]
        if len(steps) > REPLAY_LIMIT:
            break
    return steps


def _reference_steps(result: SearchResult) -> list[Step]:
    """The reference search in the same steps; a cut-off is told on the return it causes."""
    steps: list[Step] = []
    cutoffs: dict[str, Cutoff] = {}
    for event in result.trace:
        if isinstance(event, Enter):
            window = _window(event.alpha, event.beta, None)
            steps.append(Step(node=event.node, event="enter", **window))
        elif isinstance(event, Evaluate):
            steps.append(Step(node=event.node, event="evaluate", value=_shown(event.value)))
        elif isinstance(event, Cutoff):
            cutoffs[event.node] = event
        elif isinstance(event, Return):
            value = _shown(event.value)
            cutoff = cutoffs.pop(event.node, None)
            if cutoff is None:
                steps.append(Step(node=event.node, event="exit", value=value))
            else:
                left, relation, right = cutoff.rule.split(" ")
                rule = (
                    f"{left} = {_shown(cutoff.value)} {relation} {right} = {_shown(cutoff.bound)}"
                )
                pruned = list(cutoff.pruned)
                steps.append(
                    Step(node=event.node, event="exit", value=value, cutoff=rule, pruned=pruned)
                )
        if len(steps) > REPLAY_LIMIT:
            break
    return steps


def _replay(tree: Tree, observed: Observed, reference: SearchResult) -> Replay:
    """Both searches of a public tree, step by step, for the feedback page's replay."""
    student = _student_steps(tree, observed)
    expected = _reference_steps(reference)
    return Replay(
        student=student[:REPLAY_LIMIT],
        reference=expected[:REPLAY_LIMIT],
        truncated=len(student) > REPLAY_LIMIT or len(expected) > REPLAY_LIMIT,
        decision_style=observed.decision_style,
    )


HIDDEN_REASONS = (
    "wrong value at the root",
    "other nodes searched than the reference's (visits, order or pruning)",
    "wrong values or alpha-beta bounds below the root",
    "wrong decision",
)
"""What a failed hidden tree of an alpha-beta exercise may say, one of these and nothing
else (:func:`hidden_reasons` words them for the other searches)."""


def hidden_reasons(exercise: Exercise) -> tuple[str, ...]:
    """The fixed reasons of ``exercise``'s hidden trees, in the terms of its search (the
    same four for every exercise: only the words differ)."""
    if ALGORITHMS[exercise.algorithm].windowed:
        return HIDDEN_REASONS
    how = "visits, order or depth limit" if exercise.options.depth_limit else "visits or order"
    return (
        HIDDEN_REASONS[0],
        f"other nodes searched than the reference's ({how})",
        "wrong values below the root",
        HIDDEN_REASONS[3],
    )


_SEARCH_MISTAKES = frozenset(
    {NodeVerdict.EXTRA, NodeVerdict.MISSED, NodeVerdict.REPEATED, NodeVerdict.OUT_OF_ORDER}
)
_VALUE_MISTAKES = frozenset({NodeVerdict.WRONG_VALUE, NodeVerdict.WRONG_BOUNDS})


def hidden_reason(feedback: TreeFeedback, reasons: tuple[str, ...] = HIDDEN_REASONS) -> str:
    """The one reason a failed hidden tree's report gives: the first of ``reasons`` (see
    :func:`hidden_reasons`) that applies. One reason, by a fixed order, whatever else went
    wrong: a search that makes several mistakes on purpose, each or not as the hidden tree
    is, learns no more than from one (see the README on what hidden trees tell)."""
    if feedback.value_ok is False:
        return reasons[0]
    found = {node.verdict for node in feedback.nodes}
    if found & _SEARCH_MISTAKES:
        return reasons[1]
    if found & _VALUE_MISTAKES:
        return reasons[2]
    return reasons[3]


def _case_report(
    case: Case,
    record: RunRecord,
    feedback: TreeFeedback | None,
    replay: Replay | None = None,
    reasons: tuple[str, ...] = HIDDEN_REASONS,
    scoring: Scoring | None = None,
) -> TreeCase:
    verdict = _run_verdict(record, feedback)
    report = TreeCase(name=case.name, hidden=case.hidden, verdict=verdict)
    if case.hidden:
        # Students learn only the verdict and, for a failed search, one reason of a fixed
        # few: the message, exception and output of a hidden tree's run are the student's
        # code's to choose, and its node verdicts would tell the tree's shape.
        if feedback is not None and not feedback.perfect:
            report.message = hidden_reason(feedback, reasons)
        elif record.outcome.verdict is not SandboxVerdict.COMPLETED:
            report.message = verdict_word(verdict)
        return report
    report.message = _short(record.outcome.message, MESSAGE_LIMIT)
    report.line = record.outcome.line
    report.column = record.outcome.column
    if replay is not None:
        report.replay = replay
    if feedback is None:
        report.nodes = []
        return report
    actual = _number(feedback.value_actual)
    if actual is None and feedback.value_ok is False and feedback.nodes:
        actual = feedback.nodes[0].actual  # not a number: NaN, None, a string ... as shown
    report.value = ValueCheck(expected=_number(feedback.value_expected), actual=actual)
    report.decision = Decision(
        expected=feedback.decision_expected,
        actual=None if feedback.decision_actual is None else _short(feedback.decision_actual),
    )
    divergence = feedback.first_divergence
    report.first_divergence = (
        None
        if divergence is None
        else Divergence(
            node=divergence.node,
            message=_short(divergence.message, MESSAGE_LIMIT),
            line=_divergence_line(record.observed, divergence.node, divergence.event),
        )
    )
    report.score = feedback.score
    report.max_score = feedback.max_score
    report.score_parts = score_parts(feedback, scoring)
    report.nodes = [
        NodeReport(
            node=node.node,
            verdict=node.verdict,
            expected=None if node.expected is None else _short(node.expected),
            actual=None if node.actual is None else _short(node.actual),
            message=_short(node.message, MESSAGE_LIMIT),
        )
        for node in feedback.nodes
    ]
    return report


def _part(part: Part | None) -> PartScore | None:
    return (
        None
        if part is None
        else PartScore(earned=part.earned, possible=part.possible, weight=part.weight)
    )


def score_parts(feedback: TreeFeedback, scoring: Scoring | None = None) -> ScoreParts:
    """What makes a public tree's score (see :func:`reference.feedback.scoring.tree_parts`)."""
    parts = tree_parts(feedback, scoring)
    verdicts = _part(parts.nodes)
    assert verdicts is not None
    return ScoreParts(
        value=_part(parts.value),
        decision=_part(parts.decision),
        verdicts=verdicts,
        good=parts.good,
        counted=parts.counted,
    )


def total_parts(total: ExerciseScore) -> TotalParts | None:
    """What makes the total: the public and the hidden trees' shares."""
    if total.public is None or total.hidden is None:
        return None

    def share(found: Share) -> ShareScore:
        return ShareScore(
            trees=found.trees,
            passed=found.passed,
            mean=found.mean,
            weight=found.weight,
            points=found.points,
        )

    return TotalParts(public=share(total.public), hidden=share(total.hidden))


LINE_LOOKBACK = 1000
"""Events read back from a divergence for the call of its node it happened in."""


def _divergence_line(observed: Observed, node: str, event: int | None) -> int | None:
    """The line of the student's file from which the call of the search function that the
    divergence at ``node`` showed in was made: the event's own (a call or a return of an
    entry function), or, for a game call about ``node`` (its first visit, where a window
    that differs is judged), the line of the call on ``node`` it was made inside. None
    where the harness does not know it (a leaf scored in its parent's loop)."""
    events = observed.events
    if event is None or not 0 <= event < len(events):
        return None
    found = events[event]
    if found.node != node:
        return None
    if not isinstance(found, Visit):
        return event_line(found)
    for earlier in reversed(events[max(0, event - LINE_LOOKBACK) : event]):
        if earlier.node != node or isinstance(earlier, Visit):
            continue
        # The latest call or return on the node: inside a call when it is a call.
        return earlier.line if isinstance(earlier, Call) else None
    return None


def _not_run(case: Case, reason: str) -> TreeCase:
    report = TreeCase(
        name=case.name, hidden=case.hidden, verdict=RunVerdict.NOT_RUN, message=f"not run: {reason}"
    )
    if not case.hidden:
        report.nodes = []
    return report


def _stopped_because(
    compile_error: SandboxOutcome | None,
    records: list[RunRecord],
    found: list[Case],
    limits: Limits,
) -> str:
    """Why the trees after the last record were not run."""
    if compile_error is not None:
        return "the file does not compile"
    if records and records[-1].outcome.verdict.ends_run:
        case = found[len(records) - 1]
        where = "a hidden tree" if case.hidden else f"tree {case.name}"
        words = verdict_word(records[-1].outcome.verdict)
        return f"the search ended with {words} on {where}"
    return f"the submission's time ({limits.submission_budget:g} s for all trees) was spent"


def grade(
    exercise: Exercise,
    source: str,
    filename: str,
    *,
    key: bytes,
    exercises_dir: Path,
    options: SandboxOptions | None = None,
    draw: str = "",
    public_only: bool = False,
    call_lines: bool = True,
    diagnose: bool = True,
    added: Sequence[AddedSuspect] = (),
) -> Report:
    """The full report of ``source`` on every tree of ``exercise`` (with ``public_only``, on
    its public trees alone: a student's check of a draft, which never runs a hidden tree).

    ``draw`` names this grading's draw of hidden trees: the same draw (a regrade of the same
    submission) gets the same hidden trees, another draw others. The source is compiled
    here, on the trusted side, before any child runs; every tree of the exercise is in the
    report, those not run as ``not_run``. The report is valid JSON whatever the student's
    code did (see :mod:`reference.report`), and holds at most
    ``reference.report.REPORT_LIMIT`` bytes. ``call_lines``: record the line each call of
    the student's search functions was made from (the first divergence's line).
    ``diagnose``: a report that did not pass carries its diagnosis (see
    :mod:`worker.diagnosis`; off, only to measure grading without it), against the
    library and the ``added`` wrong implementations of the exercise's instructors."""
    found = cases(exercise, key, exercises_dir, draw, public_only=public_only)
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
        compile_error = records.pop().outcome
    all_feedback: list[TreeFeedback | None] = []
    reports = []
    stdout = ""
    printed = 0
    cpu = wall = rss = 0
    first_problem: tuple[Case, RunRecord] | None = None
    references: dict[str, SearchResult] = {}
    for case, record in zip(found, records, strict=False):
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
                replay = _replay(case.tree, record.observed, reference)
        if feedback is None and first_problem is None:
            first_problem = (case, record)
        all_feedback.append(feedback)
        reports.append(_case_report(case, record, feedback, replay, reasons, exercise.scoring))
        if not case.hidden and len(stdout) < STDOUT_LIMIT:
            stdout += record.stdout
        if not case.hidden:
            printed += max(record.stdout_total, len(record.stdout.encode()))
            # What a hidden tree's run cost is the student's code to choose (sleep or
            # allocate in proportion to a value it read): only public trees are counted.
            cpu += record.usage.cpu_ms
            wall += record.usage.wall_ms
            rss = max(rss, record.usage.max_rss_kb)
    unrun = found[len(records) :]
    if unrun:
        reason = _stopped_because(compile_error, records, found, exercise.limits)
        reports += [_not_run(case, reason) for case in unrun]
        all_feedback += [None] * len(unrun)
    total = combine(all_feedback, exercise.scoring, whole=[case.hidden for case in found])
    verdict, message = _overall(reports, first_problem, compile_error, unrun)
    where = _where(first_problem, compile_error)
    kept = stdout[:STDOUT_LIMIT]
    dropped = printed - len(kept.encode())
    report = Report(
        exercise=exercise.slug,
        verdict=verdict,
        score=total.score,
        max_score=total.max_score,
        score_parts=total_parts(total),
        message=_short(message, MESSAGE_LIMIT),
        line=where.line,
        column=where.column,
        stdout=kept,
        stdout_dropped=dropped if dropped > 0 else None,
        usage=Usage(cpu_ms=cpu, wall_ms=wall, max_rss_kb=rss),
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


def _overall(
    reports: list[TreeCase],
    problem: tuple[Case, RunRecord] | None,
    compile_error: SandboxOutcome | None,
    unrun: list[Case],
) -> tuple[RunVerdict, str]:
    if compile_error is not None:
        return RunVerdict.COMPILE_ERROR, _positioned(compile_error)
    if problem is not None:
        case, record = problem
        outcome = record.outcome
        if case.hidden:
            # Its message and line are the student's to choose (an exception's text can
            # carry anything the code saw): of a hidden tree, only the verdict is told.
            words = verdict_word(outcome.verdict)
            return _run_verdict(record, None), f"{words} on a hidden tree ({case.name})"
        return _run_verdict(record, None), _positioned(outcome)
    if unrun:
        return RunVerdict.TIME_LIMIT, (
            f"{len(unrun)} of {len(reports)} trees were not run: "
            + (reports[-len(unrun)].message or "").removeprefix("not run: ")
        )
    failed = [report.name for report in reports if report.verdict != RunVerdict.PASSED]
    if not failed:
        return RunVerdict.PASSED, f"all {len(reports)} trees passed"
    return (
        RunVerdict.FAILED,
        f"{len(failed)} of {len(reports)} trees differ from the reference: " + ", ".join(failed),
    )


def _where(
    problem: tuple[Case, RunRecord] | None, compile_error: SandboxOutcome | None
) -> SandboxOutcome:
    """The outcome whose line and column the report's own names: the compile error, or
    the first tree's problem when that tree is public (a hidden tree's line is the student's
    code's to choose)."""
    if compile_error is not None:
        return compile_error
    if problem is not None and not problem[0].hidden:
        return problem[1].outcome
    return SandboxOutcome(SandboxVerdict.COMPLETED)


def _positioned(outcome: SandboxOutcome) -> str:
    """An outcome's message with the line (and column) it names, if any."""
    where = ""
    if outcome.line is not None:
        where = f" (line {outcome.line}" + (
            f", column {outcome.column})" if outcome.column is not None else ")"
        )
    return f"{outcome.message}{where}"
