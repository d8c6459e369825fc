"""LTI 1.3: registered platforms, the tool's signing key, and the links a launch made."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from grader.models.base import Base, utcnow


class LtiPlatform(Base):
    """A platform (an LMS) registered by an admin."""

    __tablename__ = "lti_platforms"
    __table_args__ = (UniqueConstraint("issuer", "client_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    issuer: Mapped[str] = mapped_column(String(500))
    client_id: Mapped[str] = mapped_column(String(300))
    deployment_ids: Mapped[list[Any]]
    auth_login_url: Mapped[str] = mapped_column(String(2000))
    auth_token_url: Mapped[str] = mapped_column(String(2000))
    key_set_url: Mapped[str] = mapped_column(String(2000))
    tool_private_key: Mapped[str] = mapped_column(Text)
    """PEM of the tool's RSA key for this platform (its public half is in the JWKS)."""
    tool_key_id: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class LtiContext(Base):
    """A platform's course (context) and the grader's course it maps to."""

    __tablename__ = "lti_contexts"
    __table_args__ = (UniqueConstraint("platform_id", "context_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(
        ForeignKey("lti_platforms.id", ondelete="CASCADE"), index=True
    )
    context_id: Mapped[str] = mapped_column(String(300))
    title: Mapped[str] = mapped_column(String(300), default="")
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id", ondelete="CASCADE"))


class LtiLaunch(Base):
    """What a student's latest launch of an exercise said: where to send the score."""

    __tablename__ = "lti_launches"
    __table_args__ = (UniqueConstraint("platform_id", "user_id", "exercise_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(
        ForeignKey("lti_platforms.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    exercise_id: Mapped[int] = mapped_column(ForeignKey("exercises.id", ondelete="CASCADE"))
    subject: Mapped[str] = mapped_column(String(300))
    """The platform's user id (``sub``), as the score must name it."""
    resource_link_id: Mapped[str] = mapped_column(String(300), default="")
    lineitem_url: Mapped[str | None] = mapped_column(String(2000))
    ags_scopes: Mapped[list[Any]]
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
