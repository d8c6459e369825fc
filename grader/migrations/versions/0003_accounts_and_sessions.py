"""Accounts: session versions, case-insensitive emails, password resets, LTI nonces

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25 12:30:00
"""

from __future__ import annotations

import hashlib
import logging
from collections import defaultdict

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(
            sa.Column("session_version", sa.Integer(), server_default="1", nullable=False)
        )
        batch.add_column(sa.Column("lms_email", sa.String(length=254), nullable=True))
    _free_squatted_emails()
    _lower_case_emails()
    op.create_table(
        "lti_nonces",
        sa.Column("nonce", sa.String(length=200), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("nonce", name=op.f("pk_lti_nonces")),
    )
    with op.batch_alter_table("lti_nonces") as batch:
        batch.create_index(batch.f("ix_lti_nonces_expires_at"), ["expires_at"], unique=False)
    op.create_table(
        "lti_pending_links",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("claims", sa.JSON(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["platform_id"],
            ["lti_platforms.id"],
            name=op.f("fk_lti_pending_links_platform_id_lti_platforms"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_lti_pending_links_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lti_pending_links")),
    )


def _free_squatted_emails() -> None:
    """Accounts an LMS or LTI platform made (no password, an external identity) gave up
    the real address they may have taken: it moves to ``lms_email`` and the account gets
    the placeholder ``grader.services.identities.placeholder_email`` gives (written out
    here: a migration must not change when that code does)."""
    connection = op.get_bind()
    users = sa.table(
        "users",
        sa.column("id", sa.Integer),
        sa.column("email", sa.String),
        sa.column("lms_email", sa.String),
        sa.column("password_hash", sa.String),
    )
    identities = sa.table(
        "external_identities",
        sa.column("user_id", sa.Integer),
        sa.column("source", sa.String),
        sa.column("external_id", sa.String),
    )
    rows = connection.execute(
        sa.select(users.c.id, users.c.email, identities.c.source, identities.c.external_id)
        .join(identities, identities.c.user_id == users.c.id)
        .where(users.c.password_hash.is_(None), ~users.c.email.like("%.invalid"))
        .order_by(users.c.id, identities.c.source)
    ).all()
    done: set[int] = set()
    for user_id, email, source, external_id in rows:
        if user_id in done:
            continue
        done.add(user_id)
        digest = hashlib.sha256(f"{source}\n{external_id}".encode()).hexdigest()[:24]
        domain = "lms" if source.startswith("integration:") else "lti"
        connection.execute(
            users.update()
            .where(users.c.id == user_id)
            .values(email=f"{domain}-{digest}@{domain}.invalid", lms_email=email.strip().lower())
        )


def _lower_case_emails() -> None:
    """Store every address stripped and lower-case, except where two accounts would then
    have the same one: those are left as they are and reported (merging accounts is a
    person's decision, not a migration's)."""
    connection = op.get_bind()
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("email", sa.String))
    rows = connection.execute(sa.select(users.c.id, users.c.email)).all()
    by_address: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for user_id, email in rows:
        by_address[email.strip().lower()].append((user_id, email))
    for address, owners in sorted(by_address.items()):
        if len(owners) > 1:
            listed = ", ".join(f"user {user_id} <{email}>" for user_id, email in owners)
            message = f"accounts whose emails differ only in case, left unchanged: {listed}"
            log.warning(message)
            print(message)  # `grader db upgrade` shows it to the operator
            continue
        ((user_id, email),) = owners
        if email != address:
            connection.execute(users.update().where(users.c.id == user_id).values(email=address))


def downgrade() -> None:
    op.drop_table("lti_pending_links")
    with op.batch_alter_table("lti_nonces") as batch:
        batch.drop_index(batch.f("ix_lti_nonces_expires_at"))
    op.drop_table("lti_nonces")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("lms_email")
        batch.drop_column("session_version")
