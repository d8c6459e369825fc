"""Course join codes: what students type to enrol, read without regard to case or the
spaces around it ("demo" joins the course DEMO), and stored upper-case."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from grader.models import Course


def normalise(code: str) -> str:
    """``code`` as stored and compared: without surrounding spaces, upper-case."""
    return code.strip().upper()


def find_course(session: Session, code: str) -> Course | None:
    """The course whose join code is ``code`` in any case, or None."""
    wanted = normalise(code)
    if not wanted:
        return None
    # Codes stored before they were upper-cased may hold lower-case letters: compare the
    # column upper-cased too.
    return session.scalar(select(Course).where(func.upper(Course.join_code) == wanted))


def is_taken(session: Session, code: str) -> bool:
    """Whether a course has ``code`` already, in any case."""
    return find_course(session, code) is not None
