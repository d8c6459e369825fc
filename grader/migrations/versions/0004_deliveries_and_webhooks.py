"""Deliveries claimed atomically, endpoints re-enabled, webhook ids

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25 12:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("deliveries") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(length=40), nullable=True))
        batch.add_column(sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("callback_endpoints") as batch:
        batch.add_column(sa.Column("enabled_again_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("enabled_again_by_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            op.f("fk_callback_endpoints_enabled_again_by_id_users"),
            "users",
            ["enabled_again_by_id"],
            ["id"],
            ondelete="SET NULL",
        )
    with op.batch_alter_table("lms_submissions") as batch:
        batch.add_column(sa.Column("lms_user_id", sa.String(length=300), nullable=True))
        batch.add_column(sa.Column("webhook_id", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("lms_submissions") as batch:
        batch.drop_column("webhook_id")
        batch.drop_column("lms_user_id")
    with op.batch_alter_table("callback_endpoints") as batch:
        batch.drop_constraint(
            op.f("fk_callback_endpoints_enabled_again_by_id_users"), type_="foreignkey"
        )
        batch.drop_column("enabled_again_by_id")
        batch.drop_column("enabled_again_at")
    with op.batch_alter_table("deliveries") as batch:
        batch.drop_column("claimed_until")
        batch.drop_column("claimed_by")
