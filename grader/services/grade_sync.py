"""Telling the LMS that a student's grade changed without a new grading: an override set or
cleared, an extension, a due date or late policy moved, a regrade confirmed.

A graded run reaches the LMS through the run's own events (:mod:`grader.services.deliveries`);
this is the other way in: the grade event makers (a ``grade.changed`` callback, an LTI
score) get the student's grade from :mod:`grader.services.grades`, the one place that
computes it.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy.orm import Session

from grader.models import Delivery, Exercise
from grader.services import grades
from grader.services.deliveries import GRADE_EVENT_MAKERS, load_plugins


def grade_changed(
    session: Session, exercise: Exercise, user_ids: Iterable[int], reason: str
) -> list[int]:
    """Make the deliveries that tell each LMS the new grade of each of ``user_ids`` on
    ``exercise`` (flushed, not sent: the caller sends the ids after the commit with
    ``queue().dispatch(session, DELIVER_TASK, ids)``). ``reason`` says why (``override``,
    ``extension``, ``deadline``, ``regrade``...); students with no attempt have no grade to
    send."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return []
    load_plugins()
    made: list[Delivery] = []
    for grade in grades.student_grades(session, exercise, wanted).values():
        if grade.score is None:
            continue
        for maker in GRADE_EVENT_MAKERS.values():
            made += maker(session, exercise, grade, reason)
    session.flush()
    return [delivery.id for delivery in made]
