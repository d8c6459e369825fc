"""The instructors' page for running a course's exercises: their sections and order, and
each exercise's status (draft, published, hidden, archived) or deletion.

Every change is a small form with its CSRF token and a button (no drag-and-drop): the
rules are :mod:`grader.services.lifecycle`'s and :mod:`grader.services.sections`'.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import HiddenField, SelectField, StringField
from wtforms.validators import AnyOf, DataRequired, Length

from grader.models import ExerciseStatus, Role, Section
from grader.services import authoring, lifecycle, permissions, sections
from grader.web.context import db_session, role_required, taught_course, taught_exercise

blueprint = Blueprint("course_admin", __name__, url_prefix="/teach")

STATUSES = [str(status) for status in ExerciseStatus]


class TitleForm(FlaskForm):
    title = StringField("Title", validators=[DataRequired(), Length(max=sections.TITLE_LIMIT)])


class MoveForm(FlaskForm):
    direction = HiddenField(validators=[AnyOf(["up", "down"])])


class StatusForm(FlaskForm):
    status = SelectField("Status", choices=STATUSES)


class SectionForm(FlaskForm):
    section = SelectField("Section", choices=[], validate_choice=False)


class ActionForm(FlaskForm):
    """A button (delete): the CSRF token only."""


def _section(section_id: int) -> Section:
    session = db_session()
    section = session.get(Section, section_id)
    if section is None or not permissions.may_change_course(
        session, current_user, section.course_id
    ):
        abort(404)
    return section


def _back(course_id: int, anchor: str = "") -> Response:
    return redirect(url_for(".course_page", course_id=course_id) + anchor)


def _valid(form: FlaskForm) -> None:
    """A form that fails validation here was not sent by this page: 400."""
    if not form.validate_on_submit():
        abort(400)


@blueprint.route("/courses/<int:course_id>/exercises")
@role_required(Role.INSTRUCTOR)
def course_page(course_id: int) -> str:
    course = taught_course(course_id)
    session = db_session()
    found = sections.course_sections(session, course.id)
    rows = authoring.course_exercises(session, course)
    groups = sections.grouped(found, rows, lambda row: row.exercise)
    return render_template(
        "course_admin/course.html",
        course=course,
        groups=groups,
        sections=found,
        title_form=TitleForm(formdata=None),
        form=ActionForm(),
        status_words=lifecycle.STATUS_WORDS,
        statuses=[str(status) for status in ExerciseStatus],
    )


# Sections.


@blueprint.route("/courses/<int:course_id>/sections", methods=["POST"])
@role_required(Role.INSTRUCTOR)
def create_section(course_id: int) -> Response:
    course = taught_course(course_id)
    form = TitleForm()
    if not form.validate_on_submit():
        flash("Give the new section a title (at most 200 characters).", "error")
        return _back(course.id)
    try:
        section = sections.create(db_session(), current_user, course.id, form.title.data or "")
    except sections.SectionProblem as problem:
        flash(f"The section was not made: {problem.message}.", "error")
        return _back(course.id)
    flash(f"Made section “{section.title}”.", "info")
    return _back(course.id, f"#section-{section.id}")


@blueprint.route("/sections/<int:section_id>/rename", methods=["POST"])
@role_required(Role.INSTRUCTOR)
def rename_section(section_id: int) -> Response:
    section = _section(section_id)
    form = TitleForm()
    if not form.validate_on_submit():
        flash("A section's title is 1 to 200 characters.", "error")
        return _back(section.course_id)
    try:
        sections.rename(db_session(), current_user, section, form.title.data or "")
    except sections.SectionProblem as problem:
        flash(f"The section was not renamed: {problem.message}.", "error")
        return _back(section.course_id)
    flash(f"Renamed the section “{section.title}”.", "info")
    return _back(section.course_id, f"#section-{section.id}")


@blueprint.route("/sections/<int:section_id>/move", methods=["POST"])
@role_required(Role.INSTRUCTOR)
def move_section(section_id: int) -> Response:
    section = _section(section_id)
    form = MoveForm()
    _valid(form)
    step = -1 if form.direction.data == "up" else 1
    if not sections.move(db_session(), current_user, section, step):
        flash(f"“{section.title}” is {'first' if step < 0 else 'last'} already.", "info")
    return _back(section.course_id, f"#section-{section.id}")


@blueprint.route("/sections/<int:section_id>/delete", methods=["POST"])
@role_required(Role.INSTRUCTOR)
def delete_section(section_id: int) -> Response:
    section = _section(section_id)
    _valid(ActionForm())
    course_id, title = section.course_id, section.title
    moved = sections.delete_section(db_session(), current_user, section)
    count = f"{len(moved)} exercise{'' if len(moved) == 1 else 's'}"
    flash(f"Deleted the section “{title}”; its {count} are now in no section.", "info")
    return _back(course_id)


# Exercises.


@blueprint.route("/exercises/<int:exercise_id>/status", methods=["POST"])
@role_required(Role.INSTRUCTOR)
def set_status(exercise_id: int) -> Response:
    exercise = taught_exercise(exercise_id)
    form = StatusForm()
    _valid(form)
    status = ExerciseStatus(form.status.data)
    try:
        lifecycle.set_status(db_session(), current_user, exercise, status)
    except lifecycle.LifecycleRefused as refused:
        flash(f"{exercise.title} was not made {status}: {refused.message}.", "error")
        return _back(exercise.course_id, f"#exercise-{exercise.id}")
    flash(f"{exercise.title} is now {lifecycle.STATUS_WORDS[status]}.", "info")
    return _back(exercise.course_id, f"#exercise-{exercise.id}")


@blueprint.route("/exercises/<int:exercise_id>/section", methods=["POST"])
@role_required(Role.INSTRUCTOR)
def set_section(exercise_id: int) -> Response:
    exercise = taught_exercise(exercise_id)
    form = SectionForm()
    _valid(form)
    chosen = form.section.data or ""
    section = None
    if chosen:
        section = db_session().get(Section, int(chosen)) if chosen.isdigit() else None
        if section is None or section.course_id != exercise.course_id:
            abort(400)
    sections.assign(db_session(), current_user, exercise, section)
    where = "in no section" if section is None else f"in “{section.title}”"
    flash(f"{exercise.title} is now {where}.", "info")
    return _back(exercise.course_id, f"#exercise-{exercise.id}")


@blueprint.route("/exercises/<int:exercise_id>/move", methods=["POST"])
@role_required(Role.INSTRUCTOR)
def move_exercise(exercise_id: int) -> Response:
    exercise = taught_exercise(exercise_id)
    form = MoveForm()
    _valid(form)
    step = -1 if form.direction.data == "up" else 1
    if not sections.move_exercise(db_session(), current_user, exercise, step):
        flash(f"{exercise.title} is {'first' if step < 0 else 'last'} already.", "info")
    return _back(exercise.course_id, f"#exercise-{exercise.id}")


@blueprint.route("/exercises/<int:exercise_id>/delete", methods=["POST"])
@role_required(Role.INSTRUCTOR)
def delete_exercise(exercise_id: int) -> Response:
    exercise = taught_exercise(exercise_id)
    _valid(ActionForm())
    course_id, title = exercise.course_id, exercise.title
    try:
        lifecycle.delete_exercise(db_session(), current_user, exercise)
    except lifecycle.LifecycleRefused as refused:
        flash(f"{title} was not deleted: {refused.message}.", "error")
        return _back(course_id, f"#exercise-{exercise_id}")
    flash(f"Deleted {title}.", "info")
    return _back(course_id)
