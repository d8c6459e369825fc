"""An instructor's page on one misconception of an exercise's class: what it is (the
explanation and the textbook's line), the students who show it now, those who showed it
and passed since, and its weeks. The class results page lists every misconception and links
here (:mod:`grader.services.misconceptions` makes the figures)."""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask_login import login_required

from grader.models import Course
from grader.models.submissions import MISCONCEPTION_NAME
from grader.services import misconceptions
from grader.web.context import db_session, settings, taught_exercise

blueprint = Blueprint("misconceptions", __name__, url_prefix="/teach")

# Access: the course's instructors and admins (``taught_exercise``); for anyone else,
# students included, the page is not found.


@blueprint.route("/exercises/<int:exercise_id>/misconceptions/<path:name>")
@login_required
def page(exercise_id: int, name: str) -> str:
    exercise = taught_exercise(exercise_id)
    if len(name) > MISCONCEPTION_NAME:  # no run names one
        abort(404)
    session = db_session()
    row = misconceptions.misconception_row(session, exercise, name, settings().exercises_dir)
    if row is None:
        abort(404)
    return render_template(
        "instructor/misconception.html",
        exercise=exercise,
        course=session.get(Course, exercise.course_id),
        row=row,
    )
