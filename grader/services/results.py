"""Storing a grading report: the run's verdict, one row per tree, one row per node.

Trees with more nodes than ``node_rows_limit`` keep only the nodes that are not ``ok`` or
``pruned`` (up to the limit); their ``counts`` stay complete.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy.orm.attributes import set_committed_value

from grader.models import GradingRun, NodeResult, TreeResult

UNREMARKABLE = ("ok", "pruned")
TEXT_LIMIT = 200


def _text(value: object) -> str | None:
    if value is None:
        return None
    text = value if isinstance(value, str) else str(value)
    return text[:TEXT_LIMIT]


def store_report(run: GradingRun, report: dict[str, Any], node_rows_limit: int) -> None:
    """Fill ``run`` from ``report`` (the document of :func:`worker.grading.grade`)."""
    run.verdict = report["verdict"]
    run.score = report["score"]
    run.max_score = report["max_score"]
    run.message = report["message"]
    run.report = report
    # A run is stored once, when it ends (its trees are written in that same commit): it
    # has none yet, and loading the empty collection would cost a query.
    set_committed_value(run, "trees", [])
    for position, case in enumerate(report["cases"]):
        nodes = case.get("nodes") or []
        tree = TreeResult(
            position=position,
            name=case["name"],
            hidden=case["hidden"],
            verdict=case["verdict"],
            message=case.get("message") or "",
            score=case.get("score"),
            max_score=case.get("max_score"),
            node_count=len(nodes),
            counts=dict(Counter(node["verdict"] for node in nodes)) if nodes else None,
        )
        kept = list(enumerate(nodes))
        if len(nodes) > node_rows_limit:
            kept = [item for item in kept if item[1]["verdict"] not in UNREMARKABLE]
            kept = kept[:node_rows_limit]
        tree.nodes = [
            NodeResult(
                position=index,
                node=node["node"][:1000],
                verdict=node["verdict"],
                expected=_text(node.get("expected")),
                actual=_text(node.get("actual")),
                message=node.get("message") or "",
            )
            for index, node in kept
        ]
        run.trees.append(tree)
