"""Running a course: exercise life cycle, sections and order, deadlines and late policies,
extensions, grade overrides, notices, the audit log, regrade previews, and the stored
results of the heavy work on a version (done by workers, not requests)

Every exercise that was published stays published; the others become drafts.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27 10:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

NOW = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "sections",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("created_at", NOW, nullable=False),
        sa.ForeignKeyConstraint(
            ["course_id"],
            ["courses.id"],
            name=op.f("fk_sections_course_id_courses"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sections")),
    )
    op.create_index(op.f("ix_sections_course_id"), "sections", ["course_id"], unique=False)

    with op.batch_alter_table("exercises", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("status", sa.String(length=20), nullable=False, server_default="draft")
        )
        batch_op.add_column(sa.Column("section_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("position", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("opens_at", NOW, nullable=True))
        batch_op.add_column(sa.Column("due_at", NOW, nullable=True))
        batch_op.add_column(sa.Column("due_origin", sa.String(length=20), nullable=True))
        batch_op.add_column(
            sa.Column("late_policy", sa.String(length=20), nullable=False, server_default="none")
        )
        batch_op.add_column(
            sa.Column("late_penalty_per_day", sa.Double(), nullable=False, server_default="0")
        )
        batch_op.add_column(
            sa.Column("late_penalty_cap", sa.Double(), nullable=False, server_default="100")
        )
        batch_op.create_index(batch_op.f("ix_exercises_section_id"), ["section_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_exercises_section_id_sections"),
            "sections",
            ["section_id"],
            ["id"],
            ondelete="SET NULL",
        )
    op.execute(sa.text("UPDATE exercises SET status = 'published' WHERE published"))
    with op.batch_alter_table("exercises", schema=None) as batch_op:
        batch_op.drop_column("published")

    op.create_table(
        "extensions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("exercise_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("due_at", NOW, nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("granted_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", NOW, nullable=False),
        sa.ForeignKeyConstraint(
            ["exercise_id"],
            ["exercises.id"],
            name=op.f("fk_extensions_exercise_id_exercises"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["granted_by_id"],
            ["users.id"],
            name=op.f("fk_extensions_granted_by_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_extensions_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_extensions")),
        sa.UniqueConstraint("exercise_id", "user_id", name=op.f("uq_extensions_exercise_id")),
    )
    op.create_index(op.f("ix_extensions_exercise_id"), "extensions", ["exercise_id"])
    op.create_index(op.f("ix_extensions_user_id"), "extensions", ["user_id"])

    op.create_table(
        "grade_overrides",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("exercise_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("score", sa.Double(), nullable=False),
        sa.Column("max_score", sa.Double(), nullable=False),
        sa.Column("comment", sa.Text(), nullable=False),
        sa.Column("set_by_id", sa.Integer(), nullable=True),
        sa.Column("set_at", NOW, nullable=False),
        sa.ForeignKeyConstraint(
            ["exercise_id"],
            ["exercises.id"],
            name=op.f("fk_grade_overrides_exercise_id_exercises"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["set_by_id"],
            ["users.id"],
            name=op.f("fk_grade_overrides_set_by_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_grade_overrides_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_grade_overrides")),
        sa.UniqueConstraint("exercise_id", "user_id", name=op.f("uq_grade_overrides_exercise_id")),
    )
    op.create_index(op.f("ix_grade_overrides_exercise_id"), "grade_overrides", ["exercise_id"])
    op.create_index(op.f("ix_grade_overrides_user_id"), "grade_overrides", ["user_id"])

    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("exercise_id", sa.Integer(), nullable=False),
        sa.Column("submission_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("created_at", NOW, nullable=False),
        sa.Column("seen_at", NOW, nullable=True),
        sa.ForeignKeyConstraint(
            ["exercise_id"],
            ["exercises.id"],
            name=op.f("fk_notices_exercise_id_exercises"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["submission_id"],
            ["submissions.id"],
            name=op.f("fk_notices_submission_id_submissions"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_notices_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notices")),
    )
    op.create_index("ix_notices_user_exercise", "notices", ["user_id", "exercise_id"])

    op.create_table(
        "audit_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", NOW, nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.Column("exercise_id", sa.Integer(), nullable=True),
        sa.Column("subject_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=60), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"],
            ["users.id"],
            name=op.f("fk_audit_events_actor_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["course_id"],
            ["courses.id"],
            name=op.f("fk_audit_events_course_id_courses"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["exercise_id"],
            ["exercises.id"],
            name=op.f("fk_audit_events_exercise_id_exercises"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["subject_id"],
            ["users.id"],
            name=op.f("fk_audit_events_subject_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_events")),
    )
    op.create_index("ix_audit_events_course_at", "audit_events", ["course_id", "at"])

    op.create_table(
        "regrades",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("exercise_id", sa.Integer(), nullable=False),
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("requested_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", NOW, nullable=False),
        sa.Column("decided_at", NOW, nullable=True),
        sa.Column("decided_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["decided_by_id"],
            ["users.id"],
            name=op.f("fk_regrades_decided_by_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["exercise_id"],
            ["exercises.id"],
            name=op.f("fk_regrades_exercise_id_exercises"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["requested_by_id"],
            ["users.id"],
            name=op.f("fk_regrades_requested_by_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["exercise_versions.id"],
            name=op.f("fk_regrades_version_id_exercise_versions"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_regrades")),
    )
    op.create_index(op.f("ix_regrades_exercise_id"), "regrades", ["exercise_id"])

    with op.batch_alter_table("grading_runs", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("counted", sa.Boolean(), nullable=False, server_default=sa.true())
        )
        batch_op.add_column(sa.Column("regrade_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_grading_runs_regrade_id"), ["regrade_id"])
        batch_op.create_foreign_key(
            batch_op.f("fk_grading_runs_regrade_id_regrades"),
            "regrades",
            ["regrade_id"],
            ["id"],
            ondelete="CASCADE",
        )

    op.create_table(
        "version_analyses",
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("stage", sa.String(length=200), nullable=False),
        sa.Column("progress", sa.Double(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("task_id", sa.String(length=200), nullable=True),
        sa.Column("queued_at", NOW, nullable=False),
        sa.Column("started_at", NOW, nullable=True),
        sa.Column("finished_at", NOW, nullable=True),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["exercise_versions.id"],
            name=op.f("fk_version_analyses_version_id_exercise_versions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("version_id", name=op.f("pk_version_analyses")),
    )


def downgrade() -> None:
    op.drop_table("version_analyses")
    # A regrade's preview runs never counted: they go with their regrade.
    runs = "SELECT id FROM grading_runs WHERE NOT counted"
    trees = f"SELECT id FROM tree_results WHERE run_id IN ({runs})"
    op.execute(sa.text(f"DELETE FROM node_results WHERE tree_result_id IN ({trees})"))
    op.execute(sa.text(f"DELETE FROM tree_results WHERE run_id IN ({runs})"))
    op.execute(sa.text("DELETE FROM deliveries WHERE run_id IN (" + runs + ")"))
    op.execute(sa.text(f"DELETE FROM grading_runs WHERE id IN ({runs})"))
    with op.batch_alter_table("grading_runs", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_grading_runs_regrade_id_regrades"), type_="foreignkey"
        )
        batch_op.drop_index(batch_op.f("ix_grading_runs_regrade_id"))
        batch_op.drop_column("regrade_id")
        batch_op.drop_column("counted")
    op.drop_index(op.f("ix_regrades_exercise_id"), table_name="regrades")
    op.drop_table("regrades")
    op.drop_index("ix_audit_events_course_at", table_name="audit_events")
    op.drop_table("audit_events")
    op.drop_index("ix_notices_user_exercise", table_name="notices")
    op.drop_table("notices")
    op.drop_index(op.f("ix_grade_overrides_user_id"), table_name="grade_overrides")
    op.drop_index(op.f("ix_grade_overrides_exercise_id"), table_name="grade_overrides")
    op.drop_table("grade_overrides")
    op.drop_index(op.f("ix_extensions_user_id"), table_name="extensions")
    op.drop_index(op.f("ix_extensions_exercise_id"), table_name="extensions")
    op.drop_table("extensions")
    with op.batch_alter_table("exercises", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("published", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    # Hidden and archived exercises were taken off students' lists: they stay off.
    op.execute(sa.text("UPDATE exercises SET published = (status = 'published')"))
    with op.batch_alter_table("exercises", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_exercises_section_id_sections"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_exercises_section_id"))
        for column in (
            "late_penalty_cap",
            "late_penalty_per_day",
            "late_policy",
            "due_origin",
            "due_at",
            "opens_at",
            "position",
            "section_id",
            "status",
        ):
            batch_op.drop_column(column)
    op.drop_index(op.f("ix_sections_course_id"), table_name="sections")
    op.drop_table("sections")
