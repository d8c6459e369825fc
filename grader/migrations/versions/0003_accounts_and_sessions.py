"""Accounts: session versions, case-insensitive emails, password resets, LTI nonces

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25 12:30:00
"""

from __future__ import annotations

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
