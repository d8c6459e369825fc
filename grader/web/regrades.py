"""The instructors' regrade pages: start a preview, watch it being graded, read whose grade
would go up or down, then confirm or cancel (the rules: :mod:`grader.services.regrades`)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from grader.models import Course, Exercise, Regrade, RegradeState, Role
from grader.services import regrades
from grader.web.context import db_session, queue, role_required, taught_exercise

blueprint = Blueprint("regrades", __name__, url_prefix="/teach")


class ActionForm(FlaskForm):
    """A button (start, confirm, cancel): the CSRF token only."""


def _regrade(regrade_id: int) -> tuple[Regrade, Exercise]:
    regrade = db_session().get(Regrade, regrade_id)
    if regrade is None:
        abort(404)
    return regrade, taught_exercise(regrade.exercise_id)


@blueprint.route("/exercises/<int:exercise_id>/regrade", methods=["POST"])
@role_required(Role.INSTRUCTOR)
def start(exercise_id: int) -> Response:
    """Start a preview of a regrade (or go to the one open)."""
    exercise = taught_exercise(exercise_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    session = db_session()
    try:
        regrade = regrades.start(session, queue(), current_user, exercise)
    except regrades.RegradeRefused as refused:
        opened = regrades.open_regrade(session, exercise.id)
        flash(f"No regrade was started: {refused.message}.", "error")
        if opened is not None:
            return redirect(url_for(".page", regrade_id=opened.id))
        return redirect(url_for("instructor.class_results_page", exercise_id=exercise.id))
    return redirect(url_for(".page", regrade_id=regrade.id))


@blueprint.route("/regrades/<int:regrade_id>")
@role_required(Role.INSTRUCTOR)
def page(regrade_id: int) -> str:
    regrade, exercise = _regrade(regrade_id)
    session = db_session()
    progress = regrades.refresh(session, regrade)
    summary = None
    if regrade.state != RegradeState.PREVIEWING and regrade.state != RegradeState.CANCELLED:
        summary = regrades.summary(session, regrade)
    return render_template(
        "regrades/regrade.html",
        regrade=regrade,
        exercise=exercise,
        course=session.get(Course, exercise.course_id),
        progress=progress,
        summary=summary,
        stale=exercise.current_version_id != regrade.version_id,
        form=ActionForm(),
    )


@blueprint.route("/regrades/<int:regrade_id>/progress")
@role_required(Role.INSTRUCTOR)
def progress_json(regrade_id: int) -> Response:
    """The preview's progress for the page's script (it reloads once ``done``)."""
    regrade, _exercise = _regrade(regrade_id)
    progress = regrades.refresh(db_session(), regrade)
    response = jsonify(
        state=regrade.state,
        total=progress.total,
        graded=progress.finished,
        errors=progress.errors,
        done=regrade.state != RegradeState.PREVIEWING,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.route("/regrades/<int:regrade_id>/confirm", methods=["POST"])
@role_required(Role.INSTRUCTOR)
def confirm(regrade_id: int) -> Response:
    regrade, _exercise = _regrade(regrade_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        done = regrades.confirm(db_session(), queue(), current_user, regrade)
    except regrades.RegradeRefused as refused:
        flash(f"The regrade was not confirmed: {refused.message}.", "error")
        return redirect(url_for(".page", regrade_id=regrade.id))
    students = len(done.changed)
    flash(
        f"Regrade confirmed: {students} student{'' if students == 1 else 's'} "
        "told of a changed grade; the LMS gets the new grades.",
        "info",
    )
    return redirect(url_for(".page", regrade_id=regrade.id))


@blueprint.route("/regrades/<int:regrade_id>/cancel", methods=["POST"])
@role_required(Role.INSTRUCTOR)
def cancel(regrade_id: int) -> Response:
    regrade, exercise = _regrade(regrade_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        regrades.cancel(db_session(), current_user, regrade)
    except regrades.RegradeRefused as refused:
        flash(f"The regrade was not cancelled: {refused.message}.", "error")
        return redirect(url_for(".page", regrade_id=regrade.id))
    flash("Regrade cancelled: nothing changed for any student.", "info")
    return redirect(url_for("instructor.class_results_page", exercise_id=exercise.id))
