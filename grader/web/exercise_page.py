"""An instructor's exercise page: its versions, and the sections other pages fill in
(deadlines, known mistakes).

Below the views that draw it: the instructors' pages draw it as it is stored, the deadline
views draw it again with their form's errors.
"""

from __future__ import annotations

from flask import render_template
from flask_wtf import FlaskForm
from sqlalchemy import select

from grader.models import Course, Exercise, ExerciseVersion
from grader.services import lifecycle
from grader.web import added_implementations, deadline_panel
from grader.web.context import db_session


class ActionForm(FlaskForm):
    """A button that changes something (publish, regrade): the CSRF token only."""


def exercise_view(exercise: Exercise, **panels: object) -> str:
    """The exercise's page; ``panels`` replace the default of a section (a form with its
    errors)."""
    panels.setdefault("deadlines", deadline_panel.panel(exercise))
    panels.setdefault("mistakes", added_implementations.panel(exercise))
    versions = (
        db_session()
        .scalars(
            select(ExerciseVersion)
            .where(ExerciseVersion.exercise_id == exercise.id)
            .order_by(ExerciseVersion.id.desc())
        )
        .all()
    )
    course = db_session().get(Course, exercise.course_id)
    return render_template(
        "instructor/exercise.html",
        exercise=exercise,
        course=course,
        versions=versions,
        form=ActionForm(),
        status_words=lifecycle.STATUS_WORDS,
        **panels,
    )
