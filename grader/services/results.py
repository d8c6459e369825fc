"""Storing a grading report: the run's verdict, one row per tree, one row per node.

Trees with more nodes than ``node_rows_limit`` keep only the nodes that are not ``ok`` or
``pruned`` (up to the limit); their ``counts`` stay complete. The rows are inserted in
bulk (one statement for the trees, one for the nodes), not object by object.

What is stored is the document of a :class:`reference.report.Report`, whoever made the
report: its text is the student's code's to choose (NUL, lone surrogates) and so are its
numbers (inf, nan), and either kind would make a database refuse the whole result; the
model makes both storable.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from grader.models import GradingRun, NodeResult, TreeResult
from reference.report import Report, Value, finite

UNREMARKABLE = ("ok", "pruned")
TEXT_LIMIT = 200
NAME_LIMIT = 200
NODE_NAME_LIMIT = 1000


def _text(value: Value, limit: int = TEXT_LIMIT) -> str | None:
    # The model's text is storable; inf and nan are told as the report's JSON tells them.
    return None if value is None else str(finite(value))[:limit]


def _score(value: float | None) -> float | None:
    """A score column's value: a finite number or None."""
    return value if value is not None and math.isfinite(value) else None


@dataclass(frozen=True, slots=True)
class TreeRows:
    """One tree's result row and the rows of the nodes it keeps (columns by name)."""

    tree: dict[str, Any]
    nodes: list[dict[str, Any]]


def result_rows(report: Report | Mapping[str, Any], node_rows_limit: int) -> list[TreeRows]:
    """The rows ``report`` (made by :func:`worker.grading.grade`, or its JSON document) is
    stored as, one per tree in order; node rows without their tree's id. Their text is
    storable whatever the report holds."""
    return _rows(Report.from_json(report), node_rows_limit)


def _rows(report: Report, node_rows_limit: int) -> list[TreeRows]:
    """As :func:`result_rows`, of the report's model."""
    rows = []
    for position, case in enumerate(report.cases):
        nodes = case.nodes or []
        # A report cut to its size limit lists only the nodes that are wrong, and counts
        # the others by verdict in ``nodes_omitted``.
        counts = Counter(str(node.verdict) for node in nodes)
        counts.update({str(verdict): n for verdict, n in (case.nodes_omitted or {}).items()})
        tree = {
            "position": position,
            "name": _text(case.name, NAME_LIMIT),
            "hidden": case.hidden,
            "verdict": str(case.verdict),
            "message": case.message or "",
            "score": _score(case.score),
            "max_score": _score(case.max_score),
            "node_count": counts.total(),
            "counts": dict(counts) if counts else None,
        }
        kept = list(enumerate(nodes))
        if len(nodes) > node_rows_limit:
            kept = [item for item in kept if item[1].verdict not in UNREMARKABLE]
            kept = kept[:node_rows_limit]
        node_rows = [
            {
                "position": index,
                "node": _text(node.node, NODE_NAME_LIMIT),
                "verdict": str(node.verdict),
                "expected": _text(node.expected),
                "actual": _text(node.actual),
                "message": node.message,
            }
            for index, node in kept
        ]
        rows.append(TreeRows(tree, node_rows))
    return rows


def store_report(
    session: Session, run: GradingRun, report: Report | Mapping[str, Any], node_rows_limit: int
) -> None:
    """Fill ``run`` from ``report`` and insert its tree and node rows.

    A run is stored once, when it ends (its rows are written in that same commit), so it
    has no rows yet. What is stored is ``report``'s JSON document (see the module's
    docstring)."""
    model = Report.from_json(report)
    run.verdict = str(model.verdict)
    run.score = _score(model.score)
    run.max_score = _score(model.max_score)
    run.message = model.message
    run.report = model.to_json()
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
