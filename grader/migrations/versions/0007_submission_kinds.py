"""Submission kinds: an attempt, or a check of a draft on the public trees

Every existing submission is an attempt (the column's server default); a check counts
towards nothing but its own rate limit (see ``grader.models.submissions.SubmissionKind``).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 16:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("kind", sa.String(length=10), nullable=False, server_default="attempt")
        )


def downgrade() -> None:
    # Checks were never attempts: they go with the column rather than become attempts.
    # Their rows are deleted child first (SQLite enforces no ON DELETE CASCADE here).
    checks = "SELECT id FROM submissions WHERE kind = 'check'"
    runs = f"SELECT id FROM grading_runs WHERE submission_id IN ({checks})"
    trees = f"SELECT id FROM tree_results WHERE run_id IN ({runs})"
    op.execute(sa.text(f"DELETE FROM node_results WHERE tree_result_id IN ({trees})"))
    op.execute(sa.text(f"DELETE FROM tree_results WHERE run_id IN ({runs})"))
    op.execute(sa.text(f"DELETE FROM grading_runs WHERE submission_id IN ({checks})"))
    op.execute(sa.text(f"DELETE FROM submissions WHERE id IN ({checks})"))
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.drop_column("kind")
