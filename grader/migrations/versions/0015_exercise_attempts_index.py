"""An index of each exercise's attempts by student

The instructor pages of an exercise start from its attempts (each student's latest run,
the grades, the roster's activity). The only index that held them, the unique index of
attempt numbers, leads with the student: every page read the attempts of every exercise of
the database to find its own. This one leads with the exercise, of attempts only (checks
are no page's).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-30 12:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

INDEX = "ix_submissions_exercise_attempts"
ATTEMPTS_ONLY = "kind = 'attempt'"


def upgrade() -> None:
    op.create_index(
        INDEX,
        "submissions",
        ["exercise_id", "user_id"],
        sqlite_where=sa.text(ATTEMPTS_ONLY),
        postgresql_where=sa.text(ATTEMPTS_ONLY),
    )


def downgrade() -> None:
    op.drop_index(INDEX, table_name="submissions")
