"""LMS integrations (webhooks, callbacks, deliveries) and LTI 1.3 platforms

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 09:01:56.640572
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table(
        "lti_platforms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("issuer", sa.String(length=500), nullable=False),
        sa.Column("client_id", sa.String(length=300), nullable=False),
        sa.Column("deployment_ids", sa.JSON(), nullable=False),
        sa.Column("auth_login_url", sa.String(length=2000), nullable=False),
        sa.Column("auth_token_url", sa.String(length=2000), nullable=False),
        sa.Column("key_set_url", sa.String(length=2000), nullable=False),
        sa.Column("tool_private_key", sa.Text(), nullable=False),
        sa.Column("tool_key_id", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lti_platforms")),
        sa.UniqueConstraint("issuer", "client_id", name=op.f("uq_lti_platforms_issuer")),
    )
    op.create_table(
        "external_identities",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=300), nullable=False),
        sa.Column("external_id", sa.String(length=300), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_external_identities_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_external_identities")),
        sa.UniqueConstraint("source", "external_id", name=op.f("uq_external_identities_source")),
    )
    with op.batch_alter_table("external_identities", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_external_identities_user_id"), ["user_id"], unique=False
        )

    op.create_table(
        "integrations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("allowed_hosts", sa.JSON(), nullable=False),
        sa.Column("secret", sa.String(length=200), nullable=False),
        sa.Column("previous_secret", sa.String(length=200), nullable=True),
        sa.Column("previous_secret_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["course_id"],
            ["courses.id"],
            name=op.f("fk_integrations_course_id_courses"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["created_by_id"],
            ["users.id"],
            name=op.f("fk_integrations_created_by_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_integrations")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_integrations_token_hash")),
    )
    with op.batch_alter_table("integrations", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_integrations_course_id"), ["course_id"], unique=False)

    op.create_table(
        "lti_contexts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("context_id", sa.String(length=300), nullable=False),
        sa.Column("title", sa.String(length=300), nullable=False),
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["course_id"],
            ["courses.id"],
            name=op.f("fk_lti_contexts_course_id_courses"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["platform_id"],
            ["lti_platforms.id"],
            name=op.f("fk_lti_contexts_platform_id_lti_platforms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lti_contexts")),
        sa.UniqueConstraint("platform_id", "context_id", name=op.f("uq_lti_contexts_platform_id")),
    )
    with op.batch_alter_table("lti_contexts", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_lti_contexts_platform_id"), ["platform_id"], unique=False
        )

    op.create_table(
        "callback_endpoints",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("integration_id", sa.Integer(), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("disabled_reason", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["integration_id"],
            ["integrations.id"],
            name=op.f("fk_callback_endpoints_integration_id_integrations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_callback_endpoints")),
        sa.UniqueConstraint(
            "integration_id", "url", name=op.f("uq_callback_endpoints_integration_id")
        ),
    )
    with op.batch_alter_table("callback_endpoints", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_callback_endpoints_integration_id"), ["integration_id"], unique=False
        )

    op.create_table(
        "lti_launches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("exercise_id", sa.Integer(), nullable=False),
        sa.Column("subject", sa.String(length=300), nullable=False),
        sa.Column("resource_link_id", sa.String(length=300), nullable=False),
        sa.Column("lineitem_url", sa.String(length=2000), nullable=True),
        sa.Column("ags_scopes", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["exercise_id"],
            ["exercises.id"],
            name=op.f("fk_lti_launches_exercise_id_exercises"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["platform_id"],
            ["lti_platforms.id"],
            name=op.f("fk_lti_launches_platform_id_lti_platforms"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_lti_launches_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lti_launches")),
        sa.UniqueConstraint(
            "platform_id", "user_id", "exercise_id", name=op.f("uq_lti_launches_platform_id")
        ),
    )
    with op.batch_alter_table("lti_launches", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_lti_launches_platform_id"), ["platform_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_lti_launches_user_id"), ["user_id"], unique=False)

    op.create_table(
        "lms_submissions",
        sa.Column("submission_id", sa.Integer(), nullable=False),
        sa.Column("integration_id", sa.Integer(), nullable=False),
        sa.Column("context_id", sa.String(length=300), nullable=False),
        sa.Column("callback_url", sa.String(length=2000), nullable=True),
        sa.ForeignKeyConstraint(
            ["integration_id"],
            ["integrations.id"],
            name=op.f("fk_lms_submissions_integration_id_integrations"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["submission_id"],
            ["submissions.id"],
            name=op.f("fk_lms_submissions_submission_id_submissions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("submission_id", name=op.f("pk_lms_submissions")),
    )
    with op.batch_alter_table("lms_submissions", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_lms_submissions_integration_id"), ["integration_id"], unique=False
        )

    op.create_table(
        "webhook_receipts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("integration_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("body_hash", sa.String(length=64), nullable=False),
        sa.Column("submission_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["integration_id"],
            ["integrations.id"],
            name=op.f("fk_webhook_receipts_integration_id_integrations"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["submission_id"],
            ["submissions.id"],
            name=op.f("fk_webhook_receipts_submission_id_submissions"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_receipts")),
        sa.UniqueConstraint(
            "integration_id", "key", name=op.f("uq_webhook_receipts_integration_id")
        ),
    )
    with op.batch_alter_table("webhook_receipts", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_webhook_receipts_integration_id"), ["integration_id"], unique=False
        )

    op.create_table(
        "deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("event", sa.String(length=60), nullable=False),
        sa.Column("message_id", sa.String(length=100), nullable=False),
        sa.Column("integration_id", sa.Integer(), nullable=True),
        sa.Column("platform_id", sa.Integer(), nullable=True),
        sa.Column("submission_id", sa.Integer(), nullable=True),
        sa.Column("run_id", sa.Integer(), nullable=True),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["integration_id"],
            ["integrations.id"],
            name=op.f("fk_deliveries_integration_id_integrations"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["platform_id"],
            ["lti_platforms.id"],
            name=op.f("fk_deliveries_platform_id_lti_platforms"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["grading_runs.id"],
            name=op.f("fk_deliveries_run_id_grading_runs"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["submission_id"],
            ["submissions.id"],
            name=op.f("fk_deliveries_submission_id_submissions"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deliveries")),
        sa.UniqueConstraint("message_id", name=op.f("uq_deliveries_message_id")),
    )
    with op.batch_alter_table("deliveries", schema=None) as batch_op:
        batch_op.create_index("ix_deliveries_due", ["state", "next_attempt_at"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_deliveries_integration_id"), ["integration_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_deliveries_platform_id"), ["platform_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_deliveries_submission_id"), ["submission_id"], unique=False
        )

    op.create_table(
        "delivery_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("delivery_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("duration_ms", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["delivery_id"],
            ["deliveries.id"],
            name=op.f("fk_delivery_attempts_delivery_id_deliveries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_delivery_attempts")),
    )
    with op.batch_alter_table("delivery_attempts", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_delivery_attempts_delivery_id"), ["delivery_id"], unique=False
        )


def downgrade() -> None:

    with op.batch_alter_table("delivery_attempts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_delivery_attempts_delivery_id"))

    op.drop_table("delivery_attempts")
    with op.batch_alter_table("deliveries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_deliveries_submission_id"))
        batch_op.drop_index(batch_op.f("ix_deliveries_platform_id"))
        batch_op.drop_index(batch_op.f("ix_deliveries_integration_id"))
        batch_op.drop_index("ix_deliveries_due")

    op.drop_table("deliveries")
    with op.batch_alter_table("webhook_receipts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_webhook_receipts_integration_id"))

    op.drop_table("webhook_receipts")
    with op.batch_alter_table("lms_submissions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_lms_submissions_integration_id"))

    op.drop_table("lms_submissions")
    with op.batch_alter_table("lti_launches", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_lti_launches_user_id"))
        batch_op.drop_index(batch_op.f("ix_lti_launches_platform_id"))

    op.drop_table("lti_launches")
    with op.batch_alter_table("callback_endpoints", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_callback_endpoints_integration_id"))

    op.drop_table("callback_endpoints")
    with op.batch_alter_table("lti_contexts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_lti_contexts_platform_id"))

    op.drop_table("lti_contexts")
    with op.batch_alter_table("integrations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_integrations_course_id"))

    op.drop_table("integrations")
    with op.batch_alter_table("external_identities", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_external_identities_user_id"))

    op.drop_table("external_identities")
    op.drop_table("lti_platforms")
