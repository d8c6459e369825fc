"""Storing a grading report, and reading it back.

A report is stored once. Its rows are the queryable truth: the run's verdict, score,
message and nearest misconception (the diagnosis's first, for the class results) on
``grading_runs``; one ``tree_results`` row per tree (its verdict, score, node
counts by verdict, first divergence); one ``node_results`` row per node (its verdict, the
values compared, the sentence on it). What only the submission page needs, the replays and
the printed output, is kept beside them in the run's ``details`` document
(:class:`RunDetails`), whose size is capped: the report is cut to
``total_bytes`` of :data:`reference.reporting.limits.LIMITS` before it is stored.

:func:`load_report` puts the :class:`reference.report.Report` back together from the rows and
the document, for the page, the API and the LMS callbacks alike.

Nothing is cut here: the report was cut to size once, by :func:`reference.reporting.limits.fit`
(which leaves a fitted report as it is), and the columns holding its texts are as wide as
its limits (:data:`reference.reporting.limits.LIMITS`; see :mod:`grader.models.submissions`).

Trees with more nodes than ``node_rows_limit`` keep only the nodes that are not ``ok`` or
``pruned`` (up to the limit); their counts stay complete, and the report read back counts
the nodes left out in ``nodes_omitted``. The rows are inserted in bulk (one statement for
the trees, one for the nodes), not object by object.

The report's text is the student's code's to choose (NUL, lone surrogates) and so are its
numbers (inf, nan); the model makes both storable. A node's values are stored as the
report's JSON writes them (``3``, ``2.5``, ``"3/4"``, ``"inf"``), so that they read back
as they were.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from grader.models import GradingRun, NodeResult, TreeResult
from reference.feedback import GOOD_VERDICTS
from reference.report import (
    Decision,
    DiagnosisReport,
    Divergence,
    NodeReport,
    Replay,
    Report,
    ScoreParts,
    Text,
    TotalParts,
    TreeCase,
    Usage,
    Value,
    ValueCheck,
    finite,
)
from reference.reporting.limits import fit


class _Document(BaseModel):
    model_config = ConfigDict(extra="forbid")


RUN_EXTRAS = {"line", "column", "stdout", "stdout_dropped", "usage", "cut", "score_parts"}
"""The report's own fields that its details document keeps."""


class DivergenceFix(_Document):
    """Where the first divergence should be fixed (``Divergence``'s ``fix_*`` fields)."""

    line: int
    site: Literal["assignment", "loop", "call"]
    name: Text | None = None


class CaseDetails(_Document):
    """What a tree's rows do not hold: its replay, the value and move at its root, the parts
    of its score, the line (and column) of its error and the line of its first divergence,
    and where that divergence's fix belongs."""

    line: int | None = None
    column: int | None = None
    divergence_line: int | None = None
    divergence_fix: DivergenceFix | None = None
    replay: Replay | None = None
    value: ValueCheck | None = None
    decision: Decision | None = None
    score_parts: ScoreParts | None = None


class RunDetails(_Document):
    """A run's ``details`` document: the parts of its report that only the submission page
    shows, and the few the rows have no column for."""

    exercise: Text
    line: int | None = None
    column: int | None = None
    stdout: Text = ""
    stdout_dropped: int | None = None
    usage: Usage | None = None
    cut: Text | None = None
    score_parts: TotalParts | None = None
    diagnosis: DiagnosisReport | None = None
    compacted: Text | None = None
    """The day (ISO) its node rows were deleted, a later attempt being graded long enough
    before (:mod:`grader.services.retention`); None: kept."""
    cases: list[CaseDetails]


def encode_value(value: Value) -> str | None:
    """A value as a node row stores it: the report's JSON of it (inf as ``"inf"``)."""
    return None if value is None else json.dumps(finite(value), ensure_ascii=False)


def decode_value(text: str | None) -> Value:
    """The value a node row's text stores (:func:`encode_value`)."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, int | float | str) else text


def _score(value: float | None) -> float | None:
    """A score column's value: a finite number or None."""
    return value if value is not None and math.isfinite(value) else None


@dataclass(frozen=True, slots=True)
class TreeRows:
    """One tree's result row and the rows of the nodes it keeps (columns by name)."""

    tree: dict[str, Any]
    nodes: list[dict[str, Any]]


def result_rows(report: Report | Mapping[str, Any], node_rows_limit: int) -> list[TreeRows]:
    """The rows ``report`` (a fitted report, or its JSON document) is stored as, one per
    tree in order; node rows without their tree's id. Their text is storable whatever the
    report holds, and fits its columns since the report was fitted to its limits."""
    return _rows(Report.from_json(report), node_rows_limit)


def _rows(report: Report, node_rows_limit: int) -> list[TreeRows]:
    """As :func:`result_rows`, of the report's model."""
    rows = []
    for position, case in enumerate(report.cases):
        nodes = case.nodes or []
        counts = case.verdict_counts()
        divergence = case.first_divergence
        tree = {
            "position": position,
            "name": case.name,
            "hidden": case.hidden,
            "verdict": str(case.verdict),
            "message": case.message or "",
            "score": _score(case.score),
            "max_score": _score(case.max_score),
            "node_count": counts.total(),
            "counts": dict(counts) if counts else None,
            "divergence_node": None if divergence is None else divergence.node,
            "divergence_message": None if divergence is None else divergence.message,
        }
        kept = list(enumerate(nodes))
        if len(nodes) > node_rows_limit:
            kept = [item for item in kept if item[1].verdict not in GOOD_VERDICTS]
            kept = kept[:node_rows_limit]
        node_rows = [
            {
                "position": index,
                "node": node.node,
                "verdict": str(node.verdict),
                "expected": encode_value(node.expected),
                "actual": encode_value(node.actual),
                "message": node.message,
            }
            for index, node in kept
        ]
        rows.append(TreeRows(tree, node_rows))
    return rows


def _fix_of(divergence: Divergence | None) -> DivergenceFix | None:
    if divergence is None or divergence.fix_line is None or divergence.fix_site is None:
        return None
    return DivergenceFix(
        line=divergence.fix_line, site=divergence.fix_site, name=divergence.fix_name
    )


def details_of(report: Report) -> RunDetails:
    """The part of ``report`` that is kept in its run's ``details`` document."""
    cases = [
        CaseDetails(
            line=case.line,
            column=case.column,
            divergence_line=None if case.first_divergence is None else case.first_divergence.line,
            divergence_fix=_fix_of(case.first_divergence),
            replay=case.replay,
            value=case.value,
            decision=case.decision,
            score_parts=case.score_parts,
        )
        for case in report.cases
    ]
    return RunDetails(
        exercise=report.exercise,
        line=report.line,
        column=report.column,
        stdout=report.stdout,
        stdout_dropped=report.stdout_dropped,
        usage=report.usage,
        cut=report.cut,
        score_parts=report.score_parts,
        diagnosis=report.diagnosis,
        cases=cases,
    )


def nearest_misconception(diagnosis: DiagnosisReport | None) -> tuple[str | None, bool | None]:
    """The library name of ``diagnosis``'s nearest misconception (its first implementation's:
    ``family/stem`` or ``added/<stem>``; for two mistakes made together that match on every
    tree, ``family/first+second``) and whether it matched on every tree; (None, None)
    without a diagnosis or a misconception in it."""
    if diagnosis is not None and diagnosis.composed is not None:
        first, second = (told.implementations[0] for told in diagnosis.composed.misconceptions)
        return f"{first}+{second.rsplit('/', 1)[-1]}", True
    if diagnosis is None or not diagnosis.misconceptions:
        return None, None
    implementations = diagnosis.misconceptions[0].implementations
    if not implementations:
        return None, None
    return implementations[0], diagnosis.exact


def store_report(
    session: Session, run: GradingRun, report: Report | Mapping[str, Any], node_rows_limit: int
) -> None:
    """Fill ``run`` from ``report`` (its verdict, score, message, details and nearest
    misconception) and insert its tree and node rows.

    A run is stored once, when it ends (its rows are written in that same commit), so it
    has no rows yet. The report is cut to its size limit first (see the module's
    docstring)."""
    model = fit(Report.from_json(report))
    run.verdict = str(model.verdict)
    run.score = _score(model.score)
    run.max_score = _score(model.max_score)
    run.message = model.message
    run.details = details_of(model).model_dump(mode="json", exclude_none=True)
    run.misconception, run.misconception_exact = nearest_misconception(model.diagnosis)
    rows = _rows(model, node_rows_limit)
    if not rows:
        return
    # Core inserts of the tables: one statement each, whatever values are None (the ORM's
    # bulk insert would split the rows by the columns they leave out).
    tables = TreeResult.metadata.tables
    trees, nodes = tables[TreeResult.__tablename__], tables[NodeResult.__tablename__]
    tree_ids = session.scalars(
        insert(trees).returning(trees.c.id, sort_by_parameter_order=True),
        [{"run_id": run.id, **tree.tree} for tree in rows],
    ).all()
    node_rows = [
        {"tree_result_id": tree_id, **node}
        for tree_id, tree in zip(tree_ids, rows, strict=True)
        for node in tree.nodes
    ]
    if node_rows:
        session.execute(insert(nodes), node_rows)


def load_report(session: Session, run: GradingRun) -> Report | None:
    """The report of ``run`` as it was stored, read back from its rows and its ``details``
    document; None when the run stored none (it has not ended, or ended through our fault
    before any report).

    The run's state and result are read again with its ``details`` (a deferred column), in
    one statement: a run loaded while it was graded would otherwise pair the details of its
    end with the verdict it had before. Its attributes then say what the report says."""
    session.refresh(run, ["state", "verdict", "score", "max_score", "message", "details"])
    if run.details is None:
        return None
    details = RunDetails.model_validate(run.details)
    trees = session.execute(
        select(TreeResult).where(TreeResult.run_id == run.id).order_by(TreeResult.position)
    ).scalars()
    cases = []
    tree_rows = list(trees)
    nodes = _node_reports(session, [tree.id for tree in tree_rows])
    for tree, extra in zip(tree_rows, details.cases, strict=True):
        cases.append(case_of(tree, extra, nodes.get(tree.id, [])))
    return Report.model_validate(
        {
            "exercise": details.exercise,
            "verdict": run.verdict,
            "score": run.score,
            "max_score": None if run.max_score is None else int(run.max_score),
            "message": run.message or "",
            **details.model_dump(
                include={
                    "line",
                    "column",
                    "stdout",
                    "stdout_dropped",
                    "usage",
                    "cut",
                    "score_parts",
                    "diagnosis",
                },
                exclude_none=True,
            ),
            "cases": cases,
        }
    )


def _node_reports(session: Session, tree_ids: list[int]) -> dict[int, list[NodeReport]]:
    """The node rows of the trees ``tree_ids``, as the report lists them, by tree id."""
    found: dict[int, list[NodeReport]] = {}
    if not tree_ids:
        return found
    rows = session.execute(
        select(
            NodeResult.tree_result_id,
            NodeResult.node,
            NodeResult.verdict,
            NodeResult.expected,
            NodeResult.actual,
            NodeResult.message,
        )
        .where(NodeResult.tree_result_id.in_(tree_ids))
        .order_by(NodeResult.tree_result_id, NodeResult.position)
    )
    for tree_id, node, verdict, expected, actual, message in rows:
        report: dict[str, Any] = {"node": node, "verdict": verdict, "message": message}
        if expected is not None:
            report["expected"] = decode_value(expected)
        if actual is not None:
            report["actual"] = decode_value(actual)
        found.setdefault(tree_id, []).append(NodeReport.model_validate(report))
    return found


def case_of(
    tree: TreeResult,
    extra: CaseDetails,
    nodes: list[NodeReport] | None,
    replay: Replay | None = None,
) -> TreeCase:
    """One tree's case of the report, from its row, its details, its node verdicts
    ``nodes`` (None: none read; every node is then counted in ``nodes_omitted``, as are
    those of its counts the rows do not hold) and, when its details were read without it,
    its ``replay``."""
    case: dict[str, Any] = {"name": tree.name, "hidden": tree.hidden, "verdict": tree.verdict}
    if tree.message:
        case["message"] = tree.message
    case.update(extra.model_dump(exclude={"divergence_line", "divergence_fix"}, exclude_none=True))
    if replay is not None:
        case["replay"] = replay
    if tree.divergence_node is not None:
        fix = extra.divergence_fix
        case["first_divergence"] = Divergence(
            node=tree.divergence_node,
            message=tree.divergence_message or "",
            line=extra.divergence_line,
            fix_line=None if fix is None else fix.line,
            fix_site=None if fix is None else fix.site,
            fix_name=None if fix is None else fix.name,
        )
    if tree.score is not None:
        case["score"] = tree.score
    if tree.max_score is not None:
        case["max_score"] = int(tree.max_score)
    if tree.counts:
        if nodes is not None:
            case["nodes"] = nodes
        omitted = Counter(tree.counts) - Counter(str(node.verdict) for node in nodes or [])
        if omitted:
            case["nodes_omitted"] = dict(omitted)
    return TreeCase.model_validate(case)
