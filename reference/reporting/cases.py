"""One tree's report (:class:`reference.report.TreeCase`) from its run and the judgement of
its search, and the fixed reasons a failed hidden tree gives."""

from __future__ import annotations

from reference.algorithms import ALGORITHMS
from reference.exercises.model import Exercise, Scoring
from reference.feedback import Divergence as Diverged
from reference.feedback import TreeFeedback
from reference.feedback.fix_site import StudentCode
from reference.feedback.reasons import VALUE_MISTAKES, Reason, reason_of
from reference.observed import Call, Observed, Return, ValueProblem, Visit, event_line
from reference.report import (
    Decision,
    Divergence,
    NodeReport,
    Replay,
    RunVerdict,
    TreeCase,
    ValueCheck,
)
from reference.reporting.runs import TreeRun
from reference.reporting.scores import score_parts
from reference.reporting.values import reported
from reference.verdict_words import verdict_word

HIDDEN_REASONS = (
    "wrong value at the root",
    "other nodes searched than the reference's (visits, order or pruning)",
    "wrong values or alpha-beta bounds below the root",
    "wrong decision",
)
"""What a failed hidden tree of an alpha-beta exercise may say, one of these and nothing
else (:func:`hidden_reasons` words them for the other searches), the first and the third
followed by the kind of a returned object that was no number (see :func:`hidden_reason`)."""


COUNT_REASON = "wrong count of static evaluations"
"""What a failed hidden tree says when only the count of static evaluations a course's
function returned was wrong (MIT 6.034's answers carry one)."""


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


def hidden_reason(
    feedback: TreeFeedback,
    reasons: tuple[str, ...] = HIDDEN_REASONS,
    observed: Observed | None = None,
) -> str:
    """The one reason a failed hidden tree's report gives: the first of ``reasons`` (see
    :func:`hidden_reasons`) that applies. One reason, by a fixed order, whatever else went
    wrong: a search that makes several mistakes on purpose, each or not as the hidden tree
    is, learns no more than from one (see the README on what hidden trees tell).

    A wrong value that was no number at all (``observed``: what the search returned) is
    told by the kind of object, in the words a public tree uses ("...: your search returned
    something that is not a number"): the root's, else that of the first node in preorder
    with a wrong value. Only the kind, one of :class:`ValueProblem`'s few, never the
    node or the object shown."""
    reason = reason_of(feedback)
    if reason is Reason.ROOT_VALUE:
        problem = observed.root_problem if observed is not None else None
        return _told(reasons[0], problem)
    if reason is Reason.VALUES_BELOW:
        return _told(reasons[2], _first_problem(feedback, observed))
    if reason is Reason.EVALUATIONS:
        return COUNT_REASON
    return reasons[reason]


def reason_words(exercise: Exercise) -> dict[Reason, str]:
    """Each reason ``exercise``'s hidden trees may give, in its words (the count of static
    evaluations only where the course's search returns one)."""
    words = dict(zip(Reason, hidden_reasons(exercise), strict=False))
    if exercise.contract.contract.counts_evaluations:
        words[Reason.EVALUATIONS] = COUNT_REASON
    return words


def _told(reason: str, problem: ValueProblem | None) -> str:
    return reason if problem is None else f"{reason}: your search {problem.value}"


def _first_problem(feedback: TreeFeedback, observed: Observed | None) -> ValueProblem | None:
    """Why the first node in preorder whose value is wrong returned no number, if it did."""
    if observed is None:
        return None
    problems: dict[str, ValueProblem] = {}
    for event in observed.events:
        if isinstance(event, Return) and event.problem is not None:
            problems.setdefault(event.node, event.problem)
    for node in feedback.nodes:
        if node.verdict in VALUE_MISTAKES and node.node in problems:
            return problems[node.node]
    return None


def case_report(
    run: TreeRun,
    feedback: TreeFeedback | None,
    replay: Replay | None = None,
    reasons: tuple[str, ...] = HIDDEN_REASONS,
    scoring: Scoring | None = None,
    code: StudentCode | None = None,
) -> TreeCase:
    """The report of the tree ``run`` ran on, its search judged ``feedback`` (None: it did
    not run to its end), with the ``replay`` of a public tree; its first divergence names
    the line where the fix belongs when the student's ``code`` tells it."""
    end = run.end
    assert feedback is not None or end.stopped is not None
    verdict = end.verdict(feedback is not None and feedback.perfect)
    report = TreeCase(name=run.name, hidden=run.hidden, verdict=verdict)
    if run.hidden:
        # Students learn only the verdict and, for a failed search, one reason of a fixed
        # few: the message, exception and output of a hidden tree's run are the student's
        # code's to choose, and its node verdicts would tell the tree's shape.
        if feedback is not None and not feedback.perfect:
            report.message = hidden_reason(feedback, reasons, run.observed)
        elif end.stopped is not None:
            report.message = verdict_word(verdict)
        return report
    report.message = end.message
    report.line = end.line
    report.column = end.column
    if replay is not None:
        report.replay = replay
    if feedback is None:
        report.nodes = []
        return report
    actual = reported(feedback.value_actual)
    if actual is None and feedback.value_ok is False and feedback.nodes:
        actual = feedback.nodes[0].actual  # not a number: NaN, None, a string ... as shown
    report.value = ValueCheck(expected=reported(feedback.value_expected), actual=actual)
    report.decision = Decision(expected=feedback.decision_expected, actual=feedback.decision_actual)
    divergence = feedback.first_divergence
    report.first_divergence = (
        None if divergence is None else reported_divergence(run.observed, divergence, code)
    )
    report.score = feedback.score
    report.max_score = feedback.max_score
    report.score_parts = score_parts(feedback, scoring)
    # A node's feedback has the report's fields, by the same names.
    report.nodes = [
        NodeReport.model_validate(node, from_attributes=True) for node in feedback.nodes
    ]
    return report


def not_run(name: str, hidden: bool, reason: str) -> TreeCase:
    """The report of a tree that was not run, and why."""
    report = TreeCase(
        name=name, hidden=hidden, verdict=RunVerdict.NOT_RUN, message=f"not run: {reason}"
    )
    if not hidden:
        report.nodes = []
    return report


LINE_LOOKBACK = 1000
"""Events read back from a divergence for the call of its node it happened in."""


def divergence_line(observed: Observed, node: str, event: int | None) -> int | None:
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


def reported_divergence(
    observed: Observed, divergence: Diverged, code: StudentCode | None = None
) -> Divergence:
    """The report of the first ``divergence`` of a search seen as ``observed``: its node,
    sentence and line, and, where a window, depth or value differed at a call whose line is
    known, where in the student's ``code`` it should have changed."""
    line = divergence_line(observed, divergence.node, divergence.event)
    report = Divergence(node=divergence.node, message=divergence.message, line=line)
    if code is not None and line is not None and divergence.differs is not None:
        fix = code.fix(line, divergence.differs)
        report.fix_line, report.fix_site, report.fix_name = fix.line, fix.site, fix.name
    return report
