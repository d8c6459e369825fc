"""The students' pages: their exercises, an exercise with its submit form, a submission
with its live status and, once graded, its feedback tree by tree.

What they may open: :mod:`grader.web.student_access`; their results and attempts:
:mod:`grader.web.student_work`; an exercise's statement, rules and trees:
:mod:`grader.web.exercise_parts`; the filters every page uses:
:mod:`grader.web.template_filters`."""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse
from wtforms import TextAreaField

from grader.models import (
    Course,
    Exercise,
    Membership,
    Section,
    Submission,
    User,
    utcnow,
)
from grader.models.base import aware
from grader.models.submissions import SubmissionKind
from grader.services import analyses, notices, overrides, permissions, sections
from grader.services.exercise_store import outline_version
from grader.services.submissions import SubmissionRefused, decode_source, standing, submit
from grader.services.tasks import GRADE_TASK
from grader.web import student_work, tree_data
from grader.web.context import db_session, queue, settings
from grader.web.deadlines import due_view, due_views
from grader.web.exercise_parts import exercise_model, fixed_parts, version_analysis
from grader.web.score_rules import score_rules
from grader.web.student_access import listed_exercises, visible_exercise, visible_submission
from grader.web.submission_view import feedback_parts, status_document
from reference.report import OUTPUT_CAP
from reference.reporting.limits import LIMITS
from reference.starter import starter_source

blueprint = Blueprint("student", __name__)


class SubmitForm(FlaskForm):
    upload = FileField("Upload your Python file")
    pasted = TextAreaField("or write or paste your code")


class ResubmitForm(FlaskForm):
    """Submit a check's code as an attempt (the form holds nothing but its CSRF token)."""


# -- the exercise list -----------------------------------------------------------------


@blueprint.route("/")
@login_required
def home() -> str:
    session = db_session()
    courses = session.scalars(
        select(Course)
        .join(Membership, Membership.course_id == Course.id)
        .where(Membership.user_id == current_user.id)
        .order_by(Course.title, Course.id)
    ).all()
    course_ids = [course.id for course in courses]
    exercises = listed_exercises(course_ids)
    course_sections = session.scalars(
        select(Section).where(Section.course_id.in_(course_ids)).order_by(Section.position)
    ).all()
    by_course: dict[int, list[sections.Group[Exercise]]] = {}
    archived: dict[int, list[Exercise]] = {}
    for course in courses:
        listed = [e for e in exercises if e.course_id == course.id and e.published]
        by_course[course.id] = sections.grouped(
            [section for section in course_sections if section.course_id == course.id],
            listed,
            lambda exercise: exercise,
        )
        archived[course.id] = sorted(
            (e for e in exercises if e.course_id == course.id and not e.published),
            key=sections.exercise_order,
        )
    standings = student_work.standings(current_user.id, exercises)
    return render_template(
        "student/home.html",
        courses=courses,
        by_course=by_course,
        archived=archived,
        standings=standings,
        unseen=notices.unseen_counts(session, current_user.id),
        due=due_views(session, exercises, current_user.id),
    )


# -- an exercise and submitting to it --------------------------------------------------


def _exercise_page(
    exercise: Exercise,
    form: SubmitForm | None = None,
    *,
    refusal: str | None = None,
    refused_kind: SubmissionKind = SubmissionKind.ATTEMPT,
    status: int = 200,
) -> tuple[str, int]:
    model = exercise_model(exercise)
    session = db_session()
    version = exercise.current_version
    assert version is not None  # exercise_model answered 404 otherwise
    result = version_analysis(version)
    fixed = fixed_parts(model, result, (version.statement if version else "") or model.statement)
    user_id = current_user.id
    checks = standing(session, settings(), user_id, exercise.id, kind=SubmissionKind.CHECK)
    shown = notices.for_exercise(session, user_id, exercise.id)
    notices.mark_seen(session, shown)
    page = render_template(
        "student/exercise.html",
        exercise=exercise,
        model=model,
        statement=fixed.statement,
        conventions=fixed.conventions,
        interface=model.contract.contract.interface,
        trees=fixed.trees,
        trees_pending=result is None,
        limits=model.limits,
        score_rules=score_rules(outline_version(settings(), exercise.slug, version)),
        output_kept=LIMITS.stdout_kept,
        output_cap=OUTPUT_CAP,
        upload_limit=settings().upload_limit_bytes,
        form=form or SubmitForm(),
        refusal=refusal,
        refused_check=refused_kind == SubmissionKind.CHECK,
        next_allowed=standing(session, settings(), user_id, exercise.id).next_allowed,
        next_check=checks.next_allowed,
        checks_per_hour=settings().checks_per_hour,
        attempts=student_work.attempts(user_id, exercise.id),
        due=due_view(session, exercise, user_id),
        scores=student_work.scores(exercise, user_id),
        override=overrides.standing(session, exercise.id, user_id),
        notices=shown,
        open_for_submissions=permissions.may_submit_to(exercise),
    )
    return page, status


@blueprint.route("/exercises/<int:exercise_id>")
@login_required
def exercise(exercise_id: int) -> tuple[str, int]:
    found = visible_exercise(exercise_id)
    form = SubmitForm()
    draft = request.args.get("draft", type=int)
    if draft is not None:
        # Back from a check or an attempt: its code in the editor (the student's own only).
        earlier = db_session().get(Submission, draft)
        if (
            earlier is not None
            and earlier.user_id == current_user.id
            and earlier.exercise_id == found.id
        ):
            form.pasted.data = earlier.source
    return _exercise_page(found, form)


@blueprint.route("/exercises/<int:exercise_id>/starter.py")
@login_required
def starter(exercise_id: int) -> Response:
    found = visible_exercise(exercise_id)
    response = Response(starter_source(exercise_model(found)), mimetype="text/x-python")
    response.headers["Content-Disposition"] = f'attachment; filename="{found.slug}.py"'
    return response


def _submitted_file(form: SubmitForm) -> tuple[str, bytes]:
    upload = request.files.get(form.upload.name)
    if upload is not None and upload.filename:
        return upload.filename, upload.read()
    pasted = (form.pasted.data or "").replace("\r\n", "\n")
    return "pasted.py", pasted.encode("utf-8")


def _accept(
    found: Exercise, form: SubmitForm, filename: str, data: bytes, kind: SubmissionKind
) -> BaseResponse:
    """Submit ``data`` as a ``kind`` (an attempt or a check) and go to its page; or the
    exercise page again, saying why it was refused."""
    session = db_session()
    try:
        source = decode_source(data, settings().upload_limit_bytes)
        user = session.get(User, current_user.id)
        assert user is not None
        submission = submit(session, settings(), user, found, filename, source, kind=kind)
    except SubmissionRefused as refused:
        session.rollback()
        page, status = _exercise_page(
            found, form, refusal=refused.message, refused_kind=kind, status=refused.status
        )
        response = Response(page, status=status)
        if refused.retry_at is not None:
            wait = (aware(refused.retry_at) - utcnow()).total_seconds()
            response.headers["Retry-After"] = str(max(int(wait) + 1, 1))
        return response
    queue().dispatch(session, GRADE_TASK, [submission.runs[0].id])
    if found.current_version is not None:
        # Its feedback draws the trees of the version's analysis: asked for now if a
        # version published before analyses existed has none.
        analyses.request_analysis(session, found.current_version, queue())
    return redirect(url_for("student.submission", submission_id=submission.id))


@blueprint.route("/exercises/<int:exercise_id>/submissions", methods=["POST"])
@login_required
def submit_source(exercise_id: int) -> BaseResponse:
    return _posted(exercise_id, SubmissionKind.ATTEMPT)


@blueprint.route("/exercises/<int:exercise_id>/checks", methods=["POST"])
@login_required
def check_source(exercise_id: int) -> BaseResponse:
    """Grade a draft on the public trees only: a check, not an attempt."""
    return _posted(exercise_id, SubmissionKind.CHECK)


def _posted(exercise_id: int, kind: SubmissionKind) -> BaseResponse:
    """The exercise's submit form, posted as a submission of ``kind``."""
    found = visible_exercise(exercise_id)
    form = SubmitForm()
    if not form.validate_on_submit():
        abort(400)
    filename, data = _submitted_file(form)
    return _accept(found, form, filename, data, kind)


@blueprint.route("/submissions/<int:submission_id>/attempt", methods=["POST"])
@login_required
def submit_checked(submission_id: int) -> BaseResponse:
    """Submit the code of one of the student's checks as an attempt."""
    checked, found = visible_submission(submission_id)
    if not checked.is_check or checked.user_id != current_user.id:
        abort(404)
    if not ResubmitForm().validate_on_submit():
        abort(400)
    form = SubmitForm(formdata=None)
    form.pasted.data = checked.source
    data = checked.source.encode("utf-8")
    return _accept(found, form, checked.filename, data, SubmissionKind.ATTEMPT)


# -- a submission ----------------------------------------------------------------------


@blueprint.route("/submissions/<int:submission_id>")
@login_required
def submission(submission_id: int) -> str:
    found, exercise_ = visible_submission(submission_id)
    session = db_session()
    own = found.user_id == current_user.id
    shown = notices.for_exercise(session, found.user_id, exercise_.id) if own else []
    notices.mark_seen(session, shown)
    role = permissions.course_role(session, current_user, exercise_.course_id)
    open_for_submissions = permissions.may_submit_to(exercise_)
    return render_template(
        "student/submission.html",
        **feedback_parts(session, settings(), found, exercise_),
        status=status_document(found),
        attempts=student_work.attempts(found.user_id, found.exercise_id),
        scores=student_work.scores(exercise_, found.user_id),
        resubmit=ResubmitForm() if found.is_check and own and open_for_submissions else None,
        override=overrides.standing(session, found.exercise_id, found.user_id),
        notices=shown,
        open_for_submissions=open_for_submissions,
        # A hidden exercise's page is closed to its students; their submissions are not.
        exercise_listed=permissions.may_see_exercise(exercise_, role, submitted=own),
    )


@blueprint.route("/submissions/<int:submission_id>/status")
@login_required
def submission_status(submission_id: int) -> Response:
    found, _exercise = visible_submission(submission_id)
    response = jsonify(status_document(found))
    response.headers["Cache-Control"] = "no-store"
    return response


# -- what the feedback's scripts fetch: each public tree's drawing, nodes and replay ------
# (grader.web.tree_data; opened to whoever may open the submission's page)

TREE = "/submissions/<int:submission_id>/runs/<int:run_id>/trees/<int:position>"


@blueprint.get(TREE)
@login_required
def tree_drawing(submission_id: int, run_id: int, position: int) -> Response:
    found, _exercise = visible_submission(submission_id)
    return tree_data.drawing(tree_data.found(found, run_id, position))


@blueprint.get(TREE + "/nodes/<int:index>")
@login_required
def tree_node(submission_id: int, run_id: int, position: int, index: int) -> Response:
    found, _exercise = visible_submission(submission_id)
    return tree_data.node(tree_data.found(found, run_id, position), index)


@blueprint.get(TREE + "/replay")
@login_required
def tree_replay(submission_id: int, run_id: int, position: int) -> Response:
    found, _exercise = visible_submission(submission_id)
    return tree_data.replay(tree_data.found(found, run_id, position))
