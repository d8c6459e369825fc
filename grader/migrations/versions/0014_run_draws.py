"""The draw of hidden trees each grading took

Hidden trees are drawn under a random name per grading (worker.trees): kept with the run,
so that a regrade of the same submission against the same exercise version draws the same
trees. Runs graded before have none: their draw's name is the one they were drawn under
then (the version's and the submission's), which the worker works out.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29 08:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("grading_runs") as batch:
        batch.add_column(sa.Column("draw", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("grading_runs") as batch:
        batch.drop_column("draw")
