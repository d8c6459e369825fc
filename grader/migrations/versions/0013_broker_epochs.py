"""What the reaper knows of the broker: the token it last wrote beside the broker's messages

A broker that no longer holds the token lost its messages (Redis restarted without
persistence); the reaper then sends again the jobs whose task it had taken. Kept in the
database, which outlives the broker, so that the first look at a broker is told apart from
a loss.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-08 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "broker_epochs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("broker", sa.String(length=300), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("written_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_broker_epochs")),
        sa.UniqueConstraint("broker", name=op.f("uq_broker_epochs_broker")),
    )


def downgrade() -> None:
    op.drop_table("broker_epochs")
