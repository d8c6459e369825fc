"""What students are told on their pages: a regrade changed their grade, an instructor set
a grade or an extension. Every kind is shown the same way, by its message; a notice is
marked seen the first time a page shows it (it stays listed)."""

from __future__ import annotations

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from grader.models import Notice, utcnow

SHOWN = 20
"""Notices listed on a page, the newest first."""


def add(
    session: Session,
    *,
    user_id: int,
    exercise_id: int,
    kind: str,
    message: str,
    submission_id: int | None = None,
) -> Notice:
    """A new notice for ``user_id`` on ``exercise_id`` (flushed)."""
    notice = Notice(
        user_id=user_id,
        exercise_id=exercise_id,
        submission_id=submission_id,
        kind=kind[:20],
        message=message,
    )
    session.add(notice)
    session.flush()
    return notice


def for_exercise(session: Session, user_id: int, exercise_id: int) -> list[Notice]:
    """``user_id``'s notices on ``exercise_id``, the newest first."""
    return list(
        session.scalars(
            select(Notice)
            .where(Notice.user_id == user_id, Notice.exercise_id == exercise_id)
            .order_by(Notice.id.desc())
            .limit(SHOWN)
        )
    )


def mark_seen(session: Session, shown: list[Notice]) -> None:
    """Mark the unseen notices of ``shown`` seen now (they keep their ``seen_at`` as it was
    read for this page: a page shows which ones are new)."""
    unseen = [notice.id for notice in shown if notice.seen_at is None]
    if unseen:
        session.execute(
            update(Notice)
            .where(Notice.id.in_(unseen))
            .values(seen_at=utcnow())
            .execution_options(synchronize_session=False)
        )


def unseen_counts(session: Session, user_id: int) -> dict[int, int]:
    """How many unseen notices ``user_id`` has, by exercise."""
    return dict(
        session.execute(
            select(Notice.exercise_id, func.count())
            .where(Notice.user_id == user_id, Notice.seen_at.is_(None))
            .group_by(Notice.exercise_id)
        ).all()
    )
