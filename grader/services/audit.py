"""The audit log: who changed what in a course, when (overrides, extensions, deadlines,
life cycle, regrades). Every service that changes a grade or a course's rules writes here."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from grader.models import AuditEvent, User


def record(
    session: Session,
    actor: User | int | None,
    course_id: int,
    action: str,
    *,
    exercise_id: int | None = None,
    subject_id: int | None = None,
    **details: Any,
) -> AuditEvent:
    """Add (and flush) an :class:`AuditEvent`: ``actor`` (a user, their id, or None for the
    service itself) did ``action`` (a dotted name, ``grade.override``) in ``course_id``,
    on ``exercise_id`` and student ``subject_id`` if any; ``details`` is what changed
    (``before=..., after=...``), stored as JSON."""
    actor_id = actor.id if isinstance(actor, User) else actor
    event = AuditEvent(
        actor_id=actor_id,
        course_id=course_id,
        exercise_id=exercise_id,
        subject_id=subject_id,
        action=action,
        details=dict(details),
    )
    session.add(event)
    session.flush()
    return event
