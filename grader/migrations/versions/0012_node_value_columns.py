"""A node row's values as wide as a report's value texts can be as JSON: 242 characters

A report keeps 40 characters of a value's text; a node row stores the value as the
report's JSON writes it, where a control character the student's code put in a value's
text is written as six (``\\u0001``). 200 characters held most values, not every one: a
value of forty control characters is 242 as JSON. (The width is
``reference.reporting.limits.LIMITS.stored_value`` when this was written; a migration
keeps its own numbers.)

Going back narrows them to 200 again (a longer value stored meanwhile is cut on
PostgreSQL's side by the cast, as SQLite keeps it whole).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

WIDE = 242
NARROW = 200


def _widths(old: int, new: int) -> None:
    with op.batch_alter_table("node_results", schema=None) as batch_op:
        for name in ("expected", "actual"):
            batch_op.alter_column(
                name,
                existing_type=sa.String(length=old),
                type_=sa.String(length=new),
                existing_nullable=True,
                postgresql_using=f"left({name}, {new})" if new < old else None,
            )


def upgrade() -> None:
    _widths(NARROW, WIDE)


def downgrade() -> None:
    _widths(WIDE, NARROW)
