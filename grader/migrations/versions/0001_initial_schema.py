"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-23 06:15:52.970588
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _current_version_fk(*, inline: bool) -> list[sa.ForeignKeyConstraint]:
    """exercises.current_version_id refers to a table created after exercises: inline on
    SQLite (which allows it and cannot add constraints later), added afterwards elsewhere."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    name = op.f("fk_exercises_current_version_id_exercise_versions")
    if inline and sqlite:
        return [
            sa.ForeignKeyConstraint(
                ["current_version_id"], ["exercise_versions.id"], name=name, ondelete="SET NULL"
            )
        ]
    if not inline and not sqlite:
        op.create_foreign_key(
            name,
            "exercises",
            "exercise_versions",
            ["current_version_id"],
            ["id"],
            ondelete="SET NULL",
        )
    return []


def upgrade() -> None:
    op.create_table(
        "courses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("join_code", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_courses")),
        sa.UniqueConstraint("join_code", name=op.f("uq_courses_join_code")),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("password_hash", sa.String(length=300), nullable=True),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("email", name=op.f("uq_users_email")),
    )
    op.create_table(
        "exercises",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=100), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("published", sa.Boolean(), nullable=False),
        sa.Column("current_version_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["course_id"],
            ["courses.id"],
            name=op.f("fk_exercises_course_id_courses"),
            ondelete="CASCADE",
        ),
        *_current_version_fk(inline=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_exercises")),
        sa.UniqueConstraint("course_id", "slug", name=op.f("uq_exercises_course_id")),
    )
    with op.batch_alter_table("exercises", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_exercises_course_id"), ["course_id"], unique=False)

    op.create_table(
        "memberships",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["course_id"],
            ["courses.id"],
            name=op.f("fk_memberships_course_id_courses"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_memberships_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_memberships")),
        sa.UniqueConstraint("user_id", "course_id", name=op.f("uq_memberships_user_id")),
    )
    with op.batch_alter_table("memberships", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_memberships_course_id"), ["course_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_memberships_user_id"), ["user_id"], unique=False)

    op.create_table(
        "exercise_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("exercise_id", sa.Integer(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("files", sa.JSON(), nullable=False),
        sa.Column("statement", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["created_by_id"],
            ["users.id"],
            name=op.f("fk_exercise_versions_created_by_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["exercise_id"],
            ["exercises.id"],
            name=op.f("fk_exercise_versions_exercise_id_exercises"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_exercise_versions")),
        sa.UniqueConstraint(
            "exercise_id", "content_hash", name=op.f("uq_exercise_versions_exercise_id")
        ),
    )
    with op.batch_alter_table("exercise_versions", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_exercise_versions_exercise_id"), ["exercise_id"], unique=False
        )

    _current_version_fk(inline=False)
    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("exercise_id", sa.Integer(), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("filename", sa.String(length=200), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("origin", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["exercise_id"],
            ["exercises.id"],
            name=op.f("fk_submissions_exercise_id_exercises"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_submissions_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_submissions")),
    )
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.create_index(
            "ix_submissions_user_exercise", ["user_id", "exercise_id"], unique=False
        )

    op.create_table(
        "grading_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("submission_id", sa.Integer(), nullable=False),
        sa.Column("exercise_version_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("deliveries", sa.Integer(), nullable=False),
        sa.Column("queued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("worker", sa.String(length=200), nullable=True),
        sa.Column("task_id", sa.String(length=200), nullable=True),
        sa.Column("verdict", sa.String(length=40), nullable=True),
        sa.Column("score", sa.Double(), nullable=True),
        sa.Column("max_score", sa.Double(), nullable=True),
        sa.Column("message", sa.Text(), nullable=True),
        sa.Column("report", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["exercise_version_id"],
            ["exercise_versions.id"],
            name=op.f("fk_grading_runs_exercise_version_id_exercise_versions"),
        ),
        sa.ForeignKeyConstraint(
            ["submission_id"],
            ["submissions.id"],
            name=op.f("fk_grading_runs_submission_id_submissions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_grading_runs")),
    )
    with op.batch_alter_table("grading_runs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_grading_runs_state"), ["state"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_grading_runs_submission_id"), ["submission_id"], unique=False
        )

    op.create_table(
        "tree_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
        sa.Column("verdict", sa.String(length=40), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("score", sa.Double(), nullable=True),
        sa.Column("max_score", sa.Double(), nullable=True),
        sa.Column("node_count", sa.Integer(), nullable=False),
        sa.Column("counts", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["grading_runs.id"],
            name=op.f("fk_tree_results_run_id_grading_runs"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tree_results")),
    )
    with op.batch_alter_table("tree_results", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tree_results_run_id"), ["run_id"], unique=False)

    op.create_table(
        "node_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tree_result_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("node", sa.String(length=1000), nullable=False),
        sa.Column("verdict", sa.String(length=40), nullable=False),
        sa.Column("expected", sa.String(length=200), nullable=True),
        sa.Column("actual", sa.String(length=200), nullable=True),
        sa.Column("message", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tree_result_id"],
            ["tree_results.id"],
            name=op.f("fk_node_results_tree_result_id_tree_results"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_node_results")),
    )
    with op.batch_alter_table("node_results", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_node_results_tree_result_id"), ["tree_result_id"], unique=False
        )


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(
            op.f("fk_exercises_current_version_id_exercise_versions"),
            "exercises",
            type_="foreignkey",
        )
    with op.batch_alter_table("node_results", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_node_results_tree_result_id"))

    op.drop_table("node_results")
    with op.batch_alter_table("tree_results", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tree_results_run_id"))

    op.drop_table("tree_results")
    with op.batch_alter_table("grading_runs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_grading_runs_submission_id"))
        batch_op.drop_index(batch_op.f("ix_grading_runs_state"))

    op.drop_table("grading_runs")
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.drop_index("ix_submissions_user_exercise")

    op.drop_table("submissions")
    with op.batch_alter_table("exercise_versions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_exercise_versions_exercise_id"))

    op.drop_table("exercise_versions")
    with op.batch_alter_table("memberships", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_memberships_user_id"))
        batch_op.drop_index(batch_op.f("ix_memberships_course_id"))

    op.drop_table("memberships")
    with op.batch_alter_table("exercises", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_exercises_course_id"))

    op.drop_table("exercises")
    op.drop_table("users")
    op.drop_table("courses")
