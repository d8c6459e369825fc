"""Account security: what lets a sign-in, a password reset or an LTI launch be used once."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from grader.models.base import Base, utcnow


class LtiNonce(Base):
    """A nonce an LTI launch used, kept until its id_token would have expired anyway: the
    primary key makes a second launch with it fail in every web process."""

    __tablename__ = "lti_nonces"

    nonce: Mapped[str] = mapped_column(String(200), primary_key=True)
    expires_at: Mapped[datetime] = mapped_column(index=True)


class PendingLink(Base):
    """A verified LTI launch waiting for its person to say whether the local account with
    the asserted email is theirs (and to prove it with its password)."""

    __tablename__ = "lti_pending_links"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """A random token, kept in the browser's session."""
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platforms.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    """The local account the platform's email names."""
    claims: Mapped[dict[str, Any]]
    expires_at: Mapped[datetime]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
