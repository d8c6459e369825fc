"""Reading a stored report in parts, for the feedback page and the documents its scripts
fetch: the page's summary (every tree's verdict, score, counts and first divergence,
without a node verdict or a step of a replay) and one public tree's whole case.

:func:`grader.services.results.load_report` reads the whole report back, every node and
every step validated again: for a tree of 5,000 nodes, some 5,000 node rows and a replay
of 4,000 steps, a fifth of a second. The page reads :func:`summary` instead, which costs the
same whatever the trees' size, and its scripts fetch what each tree's nodes and replay
make (:func:`tree_case`: one tree, and only the node rows asked for) when they draw them.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.models import GradingRun, NodeResult, RunState, TreeResult
from grader.services.results import RUN_EXTRAS, CaseDetails, RunDetails, case_of, decode_value
from reference.report import NodeReport, Replay, Report, TreeCase


@dataclass(frozen=True, slots=True)
class Summary:
    """A run's report without its node verdicts and replays (each case's ``nodes`` is
    None and ``nodes_omitted`` counts them all, by verdict), and which cases have a
    replay, by position."""

    report: Report
    replayed: tuple[bool, ...]


def summary(session: Session, run: GradingRun) -> Summary | None:
    """``run``'s report as the feedback page shows it (see :class:`Summary`); None when
    the run stored none. Like ``load_report``, the run's state and result are read again
    with its details, in one statement."""
    session.refresh(run, ["state", "verdict", "score", "max_score", "message", "details"])
    if run.details is None:
        return None
    stored = dict(run.details)
    cases = stored.get("cases", [])
    # The replays are left out before the document is read: their steps are most of it.
    stored["cases"] = [{k: v for k, v in case.items() if k != "replay"} for case in cases]
    details = RunDetails.model_validate(stored)
    trees = session.scalars(
        select(TreeResult).where(TreeResult.run_id == run.id).order_by(TreeResult.position)
    ).all()
    report = Report.model_validate(
        {
            "exercise": details.exercise,
            "verdict": run.verdict,
            "score": run.score,
            "max_score": None if run.max_score is None else int(run.max_score),
            "message": run.message or "",
            **details.model_dump(include={*RUN_EXTRAS, "diagnosis"}, exclude_none=True),
            "cases": [
                case_of(tree, extra, None) for tree, extra in zip(trees, details.cases, strict=True)
            ],
        }
    )
    return Summary(report, tuple(case.get("replay") is not None for case in cases))


def public_tree(session: Session, run: GradingRun, position: int) -> TreeResult | None:
    """The result row of ``run``'s public tree at ``position``, once the run is graded;
    None for a hidden tree (its nodes and steps are never shown) or no such tree."""
    if run.state != RunState.GRADED:
        return None
    return session.scalar(
        select(TreeResult).where(
            TreeResult.run_id == run.id,
            TreeResult.position == position,
            TreeResult.hidden.is_(False),
        )
    )


def tree_case(
    session: Session, run: GradingRun, tree: TreeResult, *, node: str | None = None
) -> TreeCase:
    """The whole case of ``run``'s tree ``tree`` (a row of :func:`public_tree`): its replay
    and its node verdicts, or only ``node``'s (the others counted in ``nodes_omitted``)."""
    stored = dict((run.details or {}).get("cases", [])[tree.position])
    # Read once, as a model the case takes as it is (not dumped and read again).
    replay = stored.pop("replay", None)
    return case_of(
        tree,
        CaseDetails.model_validate(stored),
        _node_reports(session, tree, node),
        None if replay is None else Replay.model_validate(replay),
    )


def _node_reports(session: Session, tree: TreeResult, node: str | None) -> list[NodeReport]:
    """The node rows of ``tree`` (see :func:`tree_case`), as the report lists them."""
    query = select(
        NodeResult.node,
        NodeResult.verdict,
        NodeResult.expected,
        NodeResult.actual,
        NodeResult.message,
    ).where(NodeResult.tree_result_id == tree.id)
    if node is not None:
        query = query.where(NodeResult.node == node)
    rows = session.execute(query.order_by(NodeResult.position))
    return [
        NodeReport.model_validate(
            {
                "node": name,
                "verdict": verdict,
                "expected": decode_value(expected),
                "actual": decode_value(actual),
                "message": message,
            }
        )
        for name, verdict, expected, actual, message in rows
    ]
