"""PLACEHOLDER until the lead's grade_sync reaches main (same signature): makes no
deliveries. Replaced by main's module at the merge."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy.orm import Session

from grader.models import Exercise


def grade_changed(
    session: Session, exercise: Exercise, user_ids: Iterable[int], reason: str
) -> list[int]:
    """The deliveries carrying the students' new grades to the LMS (none, here)."""
    return []
