"""A run counts its claims: ``grading_runs.deliveries`` is called ``claims``

The column counts the times a task claimed the run to grade it (``max_run_attempts`` bounds
it). Its old name was the word of the outbound LMS deliveries (the ``deliveries`` table), a
different thing. Only the name changes: every count is kept, both ways.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02 10:00:00
"""

from __future__ import annotations

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain RENAME COLUMN on both databases (SQLite has one since 3.25): no copy of the
    # table, whose rows other tables point at.
    op.alter_column("grading_runs", "deliveries", new_column_name="claims")


def downgrade() -> None:
    op.alter_column("grading_runs", "claims", new_column_name="deliveries")
