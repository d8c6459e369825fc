"""Attempt numbers of their own: a unique index on (student, exercise, number) of attempts

Before it, two attempts of a student on an exercise could share a number: two sent at the
same moment on SQLite (which has no row locks, so both counted the same attempts before
them), and an attempt spoiled by us (its run ended as an internal error) gave its number
back to the next one. Where a student's attempts on an exercise share a number, all of them
are numbered again, 1, 2, 3... in the order they were made (their time, then their id); the
others keep theirs. Checks (number 0) are not in the index.

Going back drops the index and leaves the numbers as they are now.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-30 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

INDEX = "uq_submissions_user_exercise_attempt"
ATTEMPTS_ONLY = "kind = 'attempt'"

submissions = sa.table(
    "submissions",
    sa.column("id", sa.Integer),
    sa.column("user_id", sa.Integer),
    sa.column("exercise_id", sa.Integer),
    sa.column("attempt", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    _renumber(op.get_bind())
    op.create_index(
        op.f(INDEX),
        "submissions",
        ["user_id", "exercise_id", "attempt"],
        unique=True,
        sqlite_where=sa.text(ATTEMPTS_ONLY),
        postgresql_where=sa.text(ATTEMPTS_ONLY),
    )


def _renumber(connection: sa.Connection) -> None:
    """Number the attempts of each student and exercise where a number repeats 1, 2, 3...
    in the order they were made."""
    s = submissions.c
    attempts = s.kind == "attempt"
    shared = (
        sa.select(s.user_id, s.exercise_id)
        .where(attempts)
        .group_by(s.user_id, s.exercise_id, s.attempt)
        .having(sa.func.count() > 1)
        .distinct()
    )
    for user_id, exercise_id in connection.execute(shared).all():
        made = connection.execute(
            sa.select(s.id, s.attempt)
            .where(attempts, s.user_id == user_id, s.exercise_id == exercise_id)
            .order_by(s.created_at, s.id)
        ).all()
        moved = [
            {"row_id": row_id, "number": number}
            for number, (row_id, attempt) in enumerate(made, start=1)
            if attempt != number
        ]
        connection.execute(
            submissions.update()
            .where(s.id == sa.bindparam("row_id"))
            .values(attempt=sa.bindparam("number")),
            moved,
        )


def downgrade() -> None:
    op.drop_index(op.f(INDEX), table_name="submissions")
