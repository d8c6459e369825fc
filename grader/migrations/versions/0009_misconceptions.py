"""Misconceptions: each run's nearest misconception as columns (for the class results),
and the wrong implementations instructors add to an exercise's library

The runs stored before this revision get their columns from the diagnosis their ``details``
document keeps (its first misconception's first implementation, and ``exact``), read in
batches. This migration keeps its own copy of that step (not the service's code).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27 13:00:00
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

NOW = sa.DateTime(timezone=True)
BATCH = 200
"""Runs read per round trip."""
NAME_LIMIT = 200

runs = sa.table(
    "grading_runs",
    sa.column("id", sa.Integer),
    sa.column("details", sa.JSON),
    sa.column("misconception", sa.String),
    sa.column("misconception_exact", sa.Boolean),
)


def upgrade() -> None:
    with op.batch_alter_table("grading_runs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("misconception", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("misconception_exact", sa.Boolean(), nullable=True))
        batch_op.create_index(
            batch_op.f("ix_grading_runs_misconception"), ["misconception"], unique=False
        )
    _backfill(op.get_bind())
    _analyze(op.get_bind(), "grading_runs")

    op.create_table(
        "added_implementations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("exercise_id", sa.Integer(), nullable=False),
        sa.Column("author_id", sa.Integer(), nullable=True),
        sa.Column("stem", sa.String(length=80), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("explanation", sa.Text(), nullable=False),
        sa.Column("pseudocode", sa.Text(), nullable=False),
        sa.Column("hint", sa.Text(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("problem", sa.Text(), nullable=True),
        sa.Column("version_id", sa.Integer(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("task_id", sa.String(length=200), nullable=True),
        sa.Column("created_at", NOW, nullable=False),
        sa.Column("checked_at", NOW, nullable=True),
        sa.ForeignKeyConstraint(
            ["author_id"],
            ["users.id"],
            name=op.f("fk_added_implementations_author_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["exercise_id"],
            ["exercises.id"],
            name=op.f("fk_added_implementations_exercise_id_exercises"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["exercise_versions.id"],
            name=op.f("fk_added_implementations_version_id_exercise_versions"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_added_implementations")),
        sa.UniqueConstraint(
            "exercise_id", "stem", name=op.f("uq_added_implementations_exercise_id")
        ),
    )
    op.create_index(
        op.f("ix_added_implementations_exercise_id"), "added_implementations", ["exercise_id"]
    )


def _backfill(connection: sa.Connection) -> None:
    """Each stored run's nearest misconception, from its document's diagnosis."""
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
        found = [
            {"run_id": run_id, "name": name, "exact": exact}
            for run_id, details in batch
            for name, exact in [_nearest(details)]
            if name is not None
        ]
        if found:
            connection.execute(
                runs.update()
                .where(runs.c.id == sa.bindparam("run_id"))
                .values(
                    misconception=sa.bindparam("name"),
                    misconception_exact=sa.bindparam("exact"),
                ),
                found,
            )
        last = batch[-1][0]


def _nearest(details: Any) -> tuple[str | None, bool | None]:
    """The first implementation of a document's first misconception, and ``exact``."""
    document = json.loads(details) if isinstance(details, str) else details
    diagnosis = document.get("diagnosis") if isinstance(document, dict) else None
    if not isinstance(diagnosis, dict):
        return None, None
    misconceptions = diagnosis.get("misconceptions") or []
    implementations = (misconceptions[0].get("implementations") or []) if misconceptions else []
    if not implementations:
        return None, None
    return str(implementations[0])[:NAME_LIMIT], bool(diagnosis.get("exact"))


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
    op.drop_index(op.f("ix_added_implementations_exercise_id"), table_name="added_implementations")
    op.drop_table("added_implementations")
    with op.batch_alter_table("grading_runs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_grading_runs_misconception"))
        batch_op.drop_column("misconception_exact")
        batch_op.drop_column("misconception")
