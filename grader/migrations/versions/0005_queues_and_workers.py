"""Fair queues: first enqueue time, lanes, worker heartbeats

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25 12:30:00
"""

from __future__ import annotations

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
