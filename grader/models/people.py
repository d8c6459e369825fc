"""Accounts, courses and who belongs to which course."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from grader.models.base import Base, utcnow


class Role(StrEnum):
    STUDENT = "student"
    INSTRUCTOR = "instructor"
    ADMIN = "admin"


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    """Stored lower-case and stripped. Accounts an LMS or LTI platform made have an address
    in a reserved domain (``*.invalid``) that nobody can sign in with or receive mail at."""
    name: Mapped[str] = mapped_column(String(200))
    password_hash: Mapped[str | None] = mapped_column(String(300))
    """None for accounts that only sign in through an LMS."""
    role: Mapped[str] = mapped_column(String(20), default=Role.STUDENT)
    session_version: Mapped[int] = mapped_column(default=1, server_default="1")
    """Part of every sign-in's session: raising it ends all of this user's sessions
    (signing out, a new password, a new role)."""
    lms_email: Mapped[str | None] = mapped_column(String(254))
    """The address an LMS or LTI platform asserted for this user, shown to instructors; it
    proves nothing and owns no account."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    memberships: Mapped[list[Membership]] = relationship(back_populates="user")

    # Flask-Login's user protocol.
    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def is_active(self) -> bool:
        return True

    @property
    def is_anonymous(self) -> bool:
        return False

    def get_id(self) -> str:
        """The session's (and remember cookie's) user id: ``<id>:<session_version>``, so
        that a session stops opening pages once the version moves on."""
        return f"{self.id}:{self.session_version}"

    @property
    def contact_email(self) -> str:
        """The address to show instructors: the one an LMS gave for an account it made (whose
        own address is a placeholder that receives no mail), else the account's."""
        if self.lms_email and self.email.endswith(".invalid"):
            return self.lms_email
        return self.email

    def end_sessions(self) -> None:
        """Sign this user out everywhere (every session made before now stops working)."""
        self.session_version = (self.session_version or 0) + 1

    @property
    def is_admin(self) -> bool:
        return self.role == Role.ADMIN


class Course(Base):
    __tablename__ = "courses"

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    join_code: Mapped[str] = mapped_column(String(40), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    memberships: Mapped[list[Membership]] = relationship(back_populates="course")


class Membership(Base):
    """A user's place in a course: "student" or "instructor"."""

    __tablename__ = "memberships"
    __table_args__ = (UniqueConstraint("user_id", "course_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(20), default=Role.STUDENT)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    user: Mapped[User] = relationship(back_populates="memberships")
    course: Mapped[Course] = relationship(back_populates="memberships")
