"""Fair queues: first enqueue time, lanes, worker heartbeats

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25 12:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("grading_runs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("requeued_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(
            sa.Column("lane", sa.String(length=10), nullable=False, server_default="fast")
        )
    op.create_table(
        "worker_heartbeats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hostname", sa.String(length=200), nullable=False),
        sa.Column("queue", sa.String(length=100), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_worker_heartbeats")),
        sa.UniqueConstraint("hostname", "queue", name=op.f("uq_worker_heartbeats_hostname")),
    )
    with op.batch_alter_table("worker_heartbeats", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_worker_heartbeats_seen_at"), ["seen_at"])


def downgrade() -> None:
    op.drop_table("worker_heartbeats")
    with op.batch_alter_table("grading_runs", schema=None) as batch_op:
        batch_op.drop_column("lane")
        batch_op.drop_column("requeued_at")
