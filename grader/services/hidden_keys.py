"""Each exercise's hidden-tree key: its course's and its own, derived from the service's.

The service holds one secret (``GRADER_HIDDEN_TREE_KEY``). Hidden trees are never drawn
under it directly: every exercise of every course draws under a key derived from it, the
course and the exercise (:func:`reference.hidden.scoped_key`). Two courses, or two copies
of one exercise, never share a catcher or a fresh tree, and what one course's instructor
sees of their own hidden trees (the check page of an added implementation, the version's
hidden-tree check) tells nothing of another course's.
"""

from __future__ import annotations

from grader.config import Settings
from grader.models import Exercise
from reference.hidden import scoped_key


def exercise_key(settings: Settings, exercise: Exercise) -> bytes:
    """The key ``exercise``'s hidden trees are drawn under."""
    return scoped_key(
        settings.hidden_tree_key, f"course-{exercise.course_id}", f"exercise-{exercise.id}"
    )
