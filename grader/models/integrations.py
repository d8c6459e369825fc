"""LMS integrations: signing secrets and tokens, idempotent webhook receipts, the people
and submissions an LMS brought, and outbound deliveries (result callbacks, LTI scores)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from grader.models.base import Base, utcnow


class Integration(Base):
    """An LMS allowed to submit for a course and to receive its results."""

    __tablename__ = "integrations"

    id: Mapped[int] = mapped_column(primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    allowed_hosts: Mapped[list[Any]]
    """Host names callback URLs may point at (exact, or ``*.example.edu``)."""
    secret: Mapped[str] = mapped_column(String(200))
    """The current signing secret (``whsec_`` + base64), shown once when made."""
    previous_secret: Mapped[str | None] = mapped_column(String(200))
    previous_secret_until: Mapped[datetime | None]
    """After a rotation the old secret is still accepted until then."""
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    """SHA-256 of the API token (the token itself is shown once)."""
    enabled: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))


class WebhookReceipt(Base):
    """One accepted webhook by its idempotency key: the same key never grades twice."""

    __tablename__ = "webhook_receipts"
    __table_args__ = (UniqueConstraint("integration_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    integration_id: Mapped[int] = mapped_column(
        ForeignKey("integrations.id", ondelete="CASCADE"), index=True
    )
    key: Mapped[str] = mapped_column(String(200))
    body_hash: Mapped[str] = mapped_column(String(64))
    submission_id: Mapped[int | None] = mapped_column(
        ForeignKey("submissions.id", ondelete="SET NULL")
    )
    """None while the first request with this key is still being handled."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ExternalIdentity(Base):
    """A user as an LMS knows them: ``source`` is ``integration:<id>`` or an LTI issuer."""

    __tablename__ = "external_identities"
    __table_args__ = (UniqueConstraint("source", "external_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    source: Mapped[str] = mapped_column(String(300))
    external_id: Mapped[str] = mapped_column(String(300))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class LmsSubmission(Base):
    """Where a submission came from: its integration, the LMS's context, its callback."""

    __tablename__ = "lms_submissions"

    submission_id: Mapped[int] = mapped_column(
        ForeignKey("submissions.id", ondelete="CASCADE"), primary_key=True
    )
    integration_id: Mapped[int] = mapped_column(
        ForeignKey("integrations.id", ondelete="CASCADE"), index=True
    )
    context_id: Mapped[str] = mapped_column(String(300), default="")
    callback_url: Mapped[str | None] = mapped_column(String(2000))
    lms_user_id: Mapped[str | None] = mapped_column(String(300))
    """The student's id at the LMS (the webhook's ``user.id``), sent back with the results."""
    webhook_id: Mapped[str | None] = mapped_column(String(200))
    """The ``webhook-id`` of the webhook that made the submission, sent back likewise."""


class DeliveryKind(StrEnum):
    CALLBACK = "callback"
    LTI_SCORE = "lti_score"


class DeliveryState(StrEnum):
    PENDING = "pending"
    DELIVERED = "delivered"
    FAILED = "failed"
    """Gave up: retries exhausted, or the endpoint is gone (410) or refused."""


class CallbackEndpoint(Base):
    """A callback URL of an integration; a 410 answer disables it until an instructor
    enables it again (webhooks naming it are refused meanwhile)."""

    __tablename__ = "callback_endpoints"
    __table_args__ = (UniqueConstraint("integration_id", "url"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    integration_id: Mapped[int] = mapped_column(
        ForeignKey("integrations.id", ondelete="CASCADE"), index=True
    )
    url: Mapped[str] = mapped_column(String(2000))
    disabled_at: Mapped[datetime | None]
    disabled_reason: Mapped[str | None] = mapped_column(Text)
    enabled_again_at: Mapped[datetime | None]
    """When an instructor last enabled it again after it was disabled."""
    enabled_again_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL")
    )


class Delivery(Base):
    """One event to deliver to one place, retried with backoff until it is delivered."""

    __tablename__ = "deliveries"
    __table_args__ = (Index("ix_deliveries_due", "state", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    event: Mapped[str] = mapped_column(String(60))
    """``submission.graded``, ``submission.failed`` or ``score``."""
    message_id: Mapped[str] = mapped_column(String(100), unique=True)
    """The ``webhook-id`` every attempt carries (receivers deduplicate on it)."""
    integration_id: Mapped[int | None] = mapped_column(
        ForeignKey("integrations.id", ondelete="CASCADE"), index=True
    )
    platform_id: Mapped[int | None] = mapped_column(
        ForeignKey("lti_platforms.id", ondelete="CASCADE"), index=True
    )
    submission_id: Mapped[int | None] = mapped_column(
        ForeignKey("submissions.id", ondelete="SET NULL"), index=True
    )
    run_id: Mapped[int | None] = mapped_column(ForeignKey("grading_runs.id", ondelete="SET NULL"))
    url: Mapped[str] = mapped_column(String(2000))
    payload: Mapped[dict[str, Any]]
    state: Mapped[str] = mapped_column(String(20), default=DeliveryState.PENDING)
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(default=utcnow)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    delivered_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    claimed_by: Mapped[str | None] = mapped_column(String(40))
    """The claim of the attempt under way (None: none is); only its holder sends."""
    claimed_until: Mapped[datetime | None]
    """When that claim lapses: a worker killed mid-attempt does not hold the delivery."""

    log: Mapped[list[DeliveryAttempt]] = relationship(
        back_populates="delivery", order_by="DeliveryAttempt.id", cascade="all, delete-orphan"
    )


class DeliveryAttempt(Base):
    """One try of a delivery: when, the response code (None: no response), the error."""

    __tablename__ = "delivery_attempts"

    id: Mapped[int] = mapped_column(primary_key=True)
    delivery_id: Mapped[int] = mapped_column(
        ForeignKey("deliveries.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(default=utcnow)
    status_code: Mapped[int | None]
    error: Mapped[str | None] = mapped_column(Text)
    duration_ms: Mapped[int] = mapped_column(default=0)

    delivery: Mapped[Delivery] = relationship(back_populates="log")
