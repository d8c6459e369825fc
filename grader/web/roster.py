"""The instructors' view of their students: a course's roster, an exercise's students with
their grades, any submission read as its student sees it (with every attempt of theirs),
setting or clearing a student's grade with a comment, and the course's audit log."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response
from wtforms import FloatField, TextAreaField
from wtforms.validators import Optional

from grader.models import AuditEvent, Course, Exercise, Submission, User
from grader.services import overrides, permissions, roster
from grader.services.grades import student_grade
from grader.services.tasks import DELIVER_TASK
from grader.web.context import db_session, queue, settings, taught_course, taught_exercise
from grader.web.submission_view import feedback_parts

blueprint = Blueprint("roster", __name__, url_prefix="/teach")

AUDIT_PAGE = 100


class OverrideForm(FlaskForm):
    score = FloatField("Grade", validators=[Optional()])
    comment = TextAreaField("Comment (the student reads it)")


class ClearOverrideForm(FlaskForm):
    comment = TextAreaField("Why (the student reads it)")


# Access: instructors of the course (and admins) only; for anyone else, students included,
# these pages are not found (no hint that a course or a submission exists).


def _submission(submission_id: int) -> tuple[Submission, Exercise]:
    session = db_session()
    submission = session.get(Submission, submission_id)
    exercise = None if submission is None else session.get(Exercise, submission.exercise_id)
    if (
        submission is None
        or exercise is None
        or not permissions.may_review_submission(session, current_user, submission, exercise)
    ):
        abort(404)
    return submission, exercise


# Pages.


@blueprint.route("/courses/<int:course_id>/roster")
@login_required
def course_roster(course_id: int) -> str:
    course = taught_course(course_id)
    session = db_session()
    exercises = session.scalars(
        select(Exercise).where(Exercise.course_id == course.id).order_by(Exercise.title)
    ).all()
    return render_template(
        "roster/roster.html",
        course=course,
        rows=roster.roster(session, course),
        exercises=exercises,
    )


@blueprint.route("/exercises/<int:exercise_id>/students")
@login_required
def exercise_students(exercise_id: int) -> str:
    exercise = taught_exercise(exercise_id)
    session = db_session()
    try:
        which = roster.Filter(request.args.get("show", roster.Filter.ALL))
    except ValueError:
        which = roster.Filter.ALL
    sort = request.args.get("sort", "name")
    if sort not in roster.SORTS:
        sort = "name"
    return render_template(
        "roster/students.html",
        exercise=exercise,
        course=session.get(Course, exercise.course_id),
        rows=roster.exercise_rows(session, exercise, which, sort),
        show=which,
        filters=list(roster.Filter),
        sort=sort,
    )


def _review_page(
    submission: Submission,
    exercise: Exercise,
    form: OverrideForm | None = None,
    clear_form: ClearOverrideForm | None = None,
    error: str | None = None,
    status: int = 200,
) -> tuple[str, int]:
    session = db_session()
    student = session.get(User, submission.user_id)
    grade = student_grade(session, exercise, submission.user_id)
    this = next((a for a in grade.attempts if a.submission_id == submission.id), None)
    form = form or OverrideForm(formdata=None)
    if form.score.data is None and grade.override is not None and not error:
        form.score.data = grade.override.score
    page = render_template(
        "roster/submission.html",
        **feedback_parts(session, settings(), submission, exercise),
        course=session.get(Course, exercise.course_id),
        student=student,
        grade=grade,
        this_attempt=this,
        max_score=overrides.max_score(session, exercise, submission.user_id),
        override=grade.override,
        form=form,
        clear_form=clear_form or ClearOverrideForm(formdata=None),
        error=error,
        code_title=f"{student.name if student else 'The student'}'s code",
        live_updates=False,  # the grade panel replaces the student's live status
    )
    return page, status


@blueprint.route("/submissions/<int:submission_id>")
@login_required
def submission_page(submission_id: int) -> tuple[str, int]:
    submission, exercise = _submission(submission_id)
    return _review_page(submission, exercise)


@blueprint.route("/submissions/<int:submission_id>/override", methods=["POST"])
@login_required
def set_override(submission_id: int) -> Response | tuple[str, int]:
    submission, exercise = _submission(submission_id)
    form = OverrideForm()
    if not form.validate_on_submit():
        if form.errors.keys() - {"score"}:
            abort(400)  # a missing CSRF token
        return _review_page(
            submission, exercise, form, error="the grade must be a number", status=422
        )
    return _changed(
        submission,
        exercise,
        form,
        lambda session, student: overrides.set_override(
            session, current_user, exercise, student, form.score.data, form.comment.data
        ),
        "Grade set",
    )


@blueprint.route("/submissions/<int:submission_id>/override/clear", methods=["POST"])
@login_required
def clear_override(submission_id: int) -> Response | tuple[str, int]:
    submission, exercise = _submission(submission_id)
    form = ClearOverrideForm()
    if not form.validate_on_submit():
        abort(400)
    return _changed(
        submission,
        exercise,
        form,
        lambda session, student: overrides.clear_override(
            session, current_user, exercise, student, form.comment.data
        ),
        "Override removed",
    )


def _changed(
    submission: Submission,
    exercise: Exercise,
    form: OverrideForm | ClearOverrideForm,
    change: Callable[[Session, User], overrides.Changed],
    said: str,
) -> Response | tuple[str, int]:
    """Make ``change`` to ``submission``'s student's grade; back to the page, or the page
    again with why it was refused."""
    session = db_session()
    student = session.get(User, submission.user_id)
    if student is None:
        abort(404)
    try:
        changed = change(session, student)
    except overrides.OverrideRefused as refused:
        session.rollback()
        if isinstance(form, ClearOverrideForm):
            return _review_page(
                submission, exercise, clear_form=form, error=refused.message, status=422
            )
        return _review_page(submission, exercise, form, error=refused.message, status=422)
    queue().dispatch(session, DELIVER_TASK, changed.delivery_ids)
    flash(f"{said}: {student.name} is told, and the LMS gets the grade.", "info")
    return redirect(url_for(".submission_page", submission_id=submission.id))


@blueprint.route("/courses/<int:course_id>/audit")
@login_required
def audit_log(course_id: int) -> str:
    course = taught_course(course_id)
    session = db_session()
    exercise_id = request.args.get("exercise", type=int)
    student_id = request.args.get("student", type=int)
    page = max(request.args.get("page", 1, type=int) or 1, 1)
    query = select(AuditEvent).where(AuditEvent.course_id == course.id)
    if exercise_id:
        query = query.where(AuditEvent.exercise_id == exercise_id)
    if student_id:
        query = query.where(AuditEvent.subject_id == student_id)
    events = session.scalars(
        query.order_by(AuditEvent.at.desc(), AuditEvent.id.desc())
        .offset((page - 1) * AUDIT_PAGE)
        .limit(AUDIT_PAGE + 1)
    ).all()
    exercises = session.scalars(
        select(Exercise).where(Exercise.course_id == course.id).order_by(Exercise.title)
    ).all()
    people_ids = {e.actor_id for e in events if e.actor_id} | {
        e.subject_id for e in events if e.subject_id
    }
    people = {
        user.id: user for user in session.scalars(select(User).where(User.id.in_(people_ids)))
    }
    return render_template(
        "roster/audit.html",
        course=course,
        events=events[:AUDIT_PAGE],
        more=len(events) > AUDIT_PAGE,
        page=page,
        exercises=exercises,
        titles={exercise.id: exercise.title for exercise in exercises},
        people=people,
        students=roster.roster(session, course),
        exercise_id=exercise_id,
        student_id=student_id,
    )
