"""Reports stored once: rows are the truth, the page's extras a document beside them

Until now a run kept its whole report as JSON (``grading_runs.report``) and, beside it, a
copy of its verdicts in tree and node rows. From here on the rows hold what can be asked
of a report (verdicts, values compared, first divergences) and ``grading_runs.details``
holds only what the submission page alone shows (replays, printed output, usage; see
``grader.services.results.RunDetails``). Existing reports are moved: their first
divergences go to new columns of their tree rows, their node rows are written again from
the report (a node's values as the report's JSON writes them), and the column is cut down
to the details. The downgrade puts the reports back together.

This migration keeps its own copy of the steps (not the service's code), so that it moves
reports the same way whatever the service later becomes.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 15:30:00
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

BATCH = 200
"""Runs moved per round trip."""
NODE_ROWS_LIMIT = 20000
"""Trees with more nodes keep only the rows of nodes that are not ok, pruned or not observed."""
GOOD = {"ok", "pruned", "not_observed"}
TEXT_LIMIT = 200
DETAIL_KEYS = ("line", "column", "replay", "value", "decision", "score_parts")
RUN_KEYS = (
    "line", "column", "stdout", "stdout_dropped", "usage", "cut", "score_parts", "diagnosis"
)  # fmt: skip
"""(Reports before this revision have no ``line``, ``column``, ``stdout_dropped``,
``score_parts`` or ``diagnosis``; the later ones that have them keep them both ways.)"""

runs = sa.table(
    "grading_runs",
    sa.column("id", sa.Integer),
    sa.column("verdict", sa.String),
    sa.column("score", sa.Float),
    sa.column("max_score", sa.Float),
    sa.column("message", sa.Text),
    sa.column("details", sa.JSON),
)
trees = sa.table(
    "tree_results",
    sa.column("id", sa.Integer),
    sa.column("run_id", sa.Integer),
    sa.column("position", sa.Integer),
    sa.column("name", sa.String),
    sa.column("hidden", sa.Boolean),
    sa.column("verdict", sa.String),
    sa.column("message", sa.Text),
    sa.column("score", sa.Float),
    sa.column("max_score", sa.Float),
    sa.column("counts", sa.JSON),
    sa.column("divergence_node", sa.String),
    sa.column("divergence_message", sa.Text),
)
nodes = sa.table(
    "node_results",
    sa.column("id", sa.Integer),
    sa.column("tree_result_id", sa.Integer),
    sa.column("position", sa.Integer),
    sa.column("node", sa.String),
    sa.column("verdict", sa.String),
    sa.column("expected", sa.Text),
    sa.column("actual", sa.Text),
    sa.column("message", sa.Text),
)


def upgrade() -> None:
    with op.batch_alter_table("tree_results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("divergence_node", sa.String(length=1000), nullable=True))
        batch_op.add_column(sa.Column("divergence_message", sa.Text(), nullable=True))
    with op.batch_alter_table("grading_runs", schema=None) as batch_op:
        batch_op.alter_column("report", new_column_name="details")
    connection = op.get_bind()
    for run_id, report in _stored(connection):
        _move(connection, run_id, report)
    _analyze(connection, "grading_runs", "tree_results", "node_results")


def _analyze(connection: sa.Connection, *tables: str) -> None:
    """Gather the statistics of the tables this migration filled (PostgreSQL's planner
    reads them; autovacuum would gather them only later, meanwhile every estimate is a
    guess). An empty table is left as it is: analysed, PostgreSQL takes it for empty rather
    than for never analysed (which it plans as 10 pages at least), and the checks of the
    foreign keys to it, planned once per connection, then scan it whole at every insert
    into a table that refers to it while it fills up (a new class's node rows: quadratic)."""
    if connection.dialect.name != "postgresql":
        return
    for table in tables:
        if connection.execute(sa.text(f"SELECT EXISTS (SELECT FROM {table})")).scalar():
            connection.execute(sa.text(f"ANALYZE {table}"))


def downgrade() -> None:
    connection = op.get_bind()
    for run_id, details in _stored(connection):
        connection.execute(
            runs.update()
            .where(runs.c.id == run_id)
            .values(details=_report(connection, run_id, details))
        )
    with op.batch_alter_table("grading_runs", schema=None) as batch_op:
        batch_op.alter_column("details", new_column_name="report")
    with op.batch_alter_table("tree_results", schema=None) as batch_op:
        batch_op.drop_column("divergence_message")
        batch_op.drop_column("divergence_node")


def _stored(connection: sa.Connection) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each run with a document, in batches of ``BATCH`` by id."""
    last = 0
    while True:
        batch = connection.execute(
            sa.select(runs.c.id, runs.c.details)
            .where(runs.c.id > last, runs.c.details.is_not(None))
            .order_by(runs.c.id)
            .limit(BATCH)
        ).all()
        if not batch:
            return
        for run_id, document in batch:
            yield run_id, document if isinstance(document, dict) else json.loads(document)
        last = batch[-1][0]


def _tree_ids(connection: sa.Connection, run_id: int) -> list[int]:
    return list(
        connection.scalars(
            sa.select(trees.c.id).where(trees.c.run_id == run_id).order_by(trees.c.position)
        )
    )


def _encode(value: Any) -> str | None:
    if value is None:
        return None
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= TEXT_LIMIT else json.dumps(str(value)[: TEXT_LIMIT - 8] + "…")


def _move(connection: sa.Connection, run_id: int, report: dict[str, Any]) -> None:
    """One run's report moved to its rows and its details."""
    cases = report.get("cases") or []
    tree_ids = _tree_ids(connection, run_id)
    if tree_ids:
        connection.execute(nodes.delete().where(nodes.c.tree_result_id.in_(tree_ids)))
    rows = []
    for tree_id, case in zip(tree_ids, cases, strict=False):
        divergence = case.get("first_divergence") or {}
        connection.execute(
            trees.update()
            .where(trees.c.id == tree_id)
            .values(
                divergence_node=divergence.get("node"),
                divergence_message=divergence.get("message"),
            )
        )
        listed = list(enumerate(case.get("nodes") or []))
        if len(listed) > NODE_ROWS_LIMIT:
            listed = [item for item in listed if item[1]["verdict"] not in GOOD]
        rows += [
            {
                "tree_result_id": tree_id,
                "position": position,
                "node": node["node"][:1000],
                "verdict": node["verdict"],
                "expected": _encode(node.get("expected")),
                "actual": _encode(node.get("actual")),
                "message": node.get("message") or "",
            }
            for position, node in listed[:NODE_ROWS_LIMIT]
        ]
    if rows:
        connection.execute(nodes.insert(), rows)
    details = {key: report[key] for key in RUN_KEYS if key in report}
    details["exercise"] = report.get("exercise") or ""
    details["cases"] = [_case_details(case) for case in cases]
    connection.execute(runs.update().where(runs.c.id == run_id).values(details=details))


def _case_details(case: dict[str, Any]) -> dict[str, Any]:
    kept = {key: case[key] for key in DETAIL_KEYS if key in case}
    divergence = case.get("first_divergence") or {}
    line = divergence.get("line")
    if line is not None:
        kept["divergence_line"] = line
    if divergence.get("fix_line") is not None and divergence.get("fix_site") is not None:
        # Where the divergence's fix belongs, added to the document since (as the service's
        # details_of keeps it).
        fix = {"line": divergence["fix_line"], "site": divergence["fix_site"]}
        if divergence.get("fix_name") is not None:
            fix["name"] = divergence["fix_name"]
        kept["divergence_fix"] = fix
    return kept


def _report(connection: sa.Connection, run_id: int, details: dict[str, Any]) -> dict[str, Any]:
    """One run's report put back together from its rows and its details."""
    run = connection.execute(
        sa.select(runs.c.verdict, runs.c.score, runs.c.max_score, runs.c.message).where(
            runs.c.id == run_id
        )
    ).one()
    cases = []
    extras = details.get("cases") or []
    tree_rows = connection.execute(
        sa.select(trees).where(trees.c.run_id == run_id).order_by(trees.c.position)
    ).all()
    for index, tree in enumerate(tree_rows):
        case: dict[str, Any] = {"name": tree.name, "hidden": tree.hidden, "verdict": tree.verdict}
        if tree.message:
            case["message"] = tree.message
        extra = dict(extras[index]) if index < len(extras) else {}
        divergence_line = extra.pop("divergence_line", None)
        fix = extra.pop("divergence_fix", None) or {}
        case.update(extra)
        if tree.divergence_node is not None:
            case["first_divergence"] = {
                "node": tree.divergence_node,
                "message": tree.divergence_message or "",
            }
            if divergence_line is not None:
                case["first_divergence"]["line"] = divergence_line
            for key in ("line", "site", "name"):
                if fix.get(key) is not None:
                    case["first_divergence"][f"fix_{key}"] = fix[key]
        if tree.score is not None:
            case["score"] = tree.score
        if tree.max_score is not None:
            case["max_score"] = int(tree.max_score)
        counts = tree.counts if isinstance(tree.counts, dict) else json.loads(tree.counts or "{}")
        if counts:
            listed = [
                {
                    "node": node.node,
                    "verdict": node.verdict,
                    "message": node.message,
                    **{
                        key: json.loads(getattr(node, key))
                        for key in ("expected", "actual")
                        if getattr(node, key) is not None
                    },
                }
                for node in connection.execute(
                    sa.select(nodes)
                    .where(nodes.c.tree_result_id == tree.id)
                    .order_by(nodes.c.position)
                )
            ]
            case["nodes"] = listed
            omitted = Counter(counts) - Counter(node["verdict"] for node in listed)
            if omitted:
                case["nodes_omitted"] = dict(omitted)
        cases.append(case)
    return {
        "schema_version": 1,
        "exercise": details.get("exercise", ""),
        "verdict": run.verdict,
        "score": run.score,
        "max_score": None if run.max_score is None else int(run.max_score),
        "message": run.message or "",
        **{key: details[key] for key in RUN_KEYS if key in details},
        "cases": cases,
    }
