"""The instructors' pages: their courses and exercises, uploading an exercise folder as a
draft, previewing a version (reference trace, hidden-tree check), publishing, class results
and the grade book as CSV. Regrades: grader.web.regrades; sections, order and status:
grader.web.course_admin."""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Mapping
from datetime import datetime

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import MultipleFileField, StringField
from wtforms.validators import Length

from grader.models import Course, Exercise, ExerciseVersion, Role
from grader.models.base import aware
from grader.services import (
    analyses,
    authoring,
    class_results,
    gradebook,
    lifecycle,
    misconceptions,
    permissions,
    regrades,
    sections,
)
from grader.services.exercise_store import check_outline, outline_version
from grader.services.latest_runs import read_latest_runs
from grader.web.analyses import preview_page, publish_refusal
from grader.web.context import (
    db_session,
    queue,
    role_required,
    settings,
    taught_course,
    taught_exercise,
)
from grader.web.exercise_page import ActionForm, exercise_view
from grader.web.treesvg import NodeMark
from grader.web.treesvg import stored_tree_svg as draw
from reference.problems import FileProblems, Problem, in_file_order

blueprint = Blueprint("instructor", __name__, url_prefix="/teach")
log = logging.getLogger(__name__)

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""Cells a spreadsheet would read as a formula."""


class UploadForm(FlaskForm):
    slug = StringField("Slug (the exercise's folder name)", validators=[Length(max=100)])
    files = MultipleFileField("Files: exercise.yaml and its tree files")


# Access.


# Every page here is for instructors (``role_required``), and then for the courses they
# teach: another course's pages are not found.


def _version(exercise: Exercise, version_id: int) -> ExerciseVersion:
    version = db_session().get(ExerciseVersion, version_id)
    if version is None or version.exercise_id != exercise.id:
        abort(404)
    return version


# Pages.


@blueprint.route("/")
@role_required(Role.INSTRUCTOR)
def home() -> str:
    session = db_session()
    courses = [
        (
            course,
            sections.grouped(
                sections.course_sections(session, course.id),
                authoring.course_exercises(session, course),
                lambda row: row.exercise,
            ),
        )
        for course in permissions.taught_courses(session, current_user)
    ]
    return render_template("instructor/home.html", courses=courses)


@blueprint.route("/courses/<int:course_id>/exercises/new", methods=["GET", "POST"])
@role_required(Role.INSTRUCTOR)
def upload(course_id: int) -> str | Response | tuple[str, int]:
    course = taught_course(course_id)
    form = UploadForm()
    if not form.validate_on_submit():
        if request.method == "POST":
            return _upload_page(course, form, {}, [], 400)
        form.slug.data = request.args.get("slug", "")
        return _upload_page(course, form, {}, [])
    slug = (form.slug.data or "").strip()
    files, problems = _files_from_request()
    slug_problem = authoring.slug_problem(slug)
    if slug_problem:
        form.slug.errors = [slug_problem]
    if not files and not problems:
        problems.append(
            Problem(
                "exercise.yaml", 1, 1, "choose the exercise's files: exercise.yaml and its trees"
            )
        )
    if slug_problem or problems:
        if "exercise.yaml" in files:
            # The files are checked beside a bad slug too (under a stand-in folder name,
            # since the slug may not name a folder), so one try shows every problem.
            checked = check_outline("exercise" if slug_problem else slug, files)
            problems += checked if isinstance(checked, list) else []
        return _upload_page(course, form, files, in_file_order(problems), 422)
    session = db_session()
    result = authoring.upload(session, course, slug, files, current_user)
    if isinstance(result, list):
        session.rollback()
        return _upload_page(course, form, files, result, 422)
    # The games are expanded and the trees traced by a worker, after the commit: the
    # preview shows the progress, then the result.
    analyses.request_analysis(session, result.version, queue())
    short = result.version.content_hash[:10]
    if result.created:
        flash(f"Saved draft version {short} of {slug}: check it, then publish it.", "info")
    else:
        flash(f"These files are version {short} of {slug} already: nothing new was saved.", "info")
    return redirect(
        url_for(".preview", exercise_id=result.exercise.id, version_id=result.version.id)
    )


def _files_from_request() -> tuple[dict[str, str], list[Problem]]:
    """The files of the upload form: the texts kept from an earlier try (edited in place),
    then the uploaded files (which replace kept ones of the same name)."""
    files: dict[str, str] = {}
    problems: list[Problem] = []
    names = request.form.getlist("kept_name")
    texts = request.form.getlist("kept_text")
    dropped = set(request.form.getlist("drop"))
    for name, text in zip(names, texts, strict=False):
        name = _plain_name(name)
        if name and name not in dropped:
            files[name] = text.replace("\r\n", "\n")
    for upload in request.files.getlist("files"):
        name = _plain_name(upload.filename or "")
        if not name:
            continue
        decoded = authoring.decode_upload(name, upload.read())
        if isinstance(decoded, Problem):
            problems.append(decoded)
            files.pop(name, None)
        else:
            files[name] = decoded.replace("\r\n", "\n")
    return files, problems


def _plain_name(name: str) -> str:
    # A folder upload names files "folder/exercise.yaml": keep the file's own name.
    return name.replace("\\", "/").rsplit("/", 1)[-1].strip()[:200]


def _upload_page(
    course: Course,
    form: UploadForm,
    files: Mapping[str, str],
    problems: list[Problem],
    status: int = 200,
) -> tuple[str, int]:
    by_file: dict[str, list[Problem]] = {}
    for problem in problems:
        by_file.setdefault(problem.file, []).append(problem)
    page = render_template(
        "instructor/upload.html",
        course=course,
        form=form,
        files=files,
        problems=problems,
        by_file=by_file,
    )
    return page, status


@blueprint.route("/exercises/<int:exercise_id>/")
@role_required(Role.INSTRUCTOR)
def exercise_page(exercise_id: int) -> str:
    return exercise_view(taught_exercise(exercise_id))


@blueprint.route("/exercises/<int:exercise_id>/versions/<int:version_id>")
@role_required(Role.INSTRUCTOR)
def preview(exercise_id: int, version_id: int) -> str | tuple[str, int]:
    exercise = taught_exercise(exercise_id)
    return preview_page(exercise, _version(exercise, version_id))


@blueprint.route("/exercises/<int:exercise_id>/versions/<int:version_id>/publish", methods=["POST"])
@role_required(Role.INSTRUCTOR)
def publish(exercise_id: int, version_id: int) -> Response:
    exercise = taught_exercise(exercise_id)
    version = _version(exercise, version_id)
    try:
        outline = outline_version(settings(), exercise.slug, version)
    except FileProblems:
        flash("This version no longer loads: it cannot be published.", "error")
        return redirect(url_for(".preview", exercise_id=exercise.id, version_id=version.id))
    refusal = publish_refusal(exercise, version)
    if refusal is not None:
        flash(refusal, "error")
        return redirect(url_for(".preview", exercise_id=exercise.id, version_id=version.id))
    lifecycle.publish_version(db_session(), current_user, exercise, version, outline.title)
    flash(f"Published version {version.content_hash[:10]} of {exercise.slug}.", "info")
    return redirect(url_for(".preview", exercise_id=exercise.id, version_id=version.id))


@blueprint.route("/exercises/<int:exercise_id>/class-results")
@role_required(Role.INSTRUCTOR)
def class_results_page(exercise_id: int) -> str:
    exercise = taught_exercise(exercise_id)
    session = db_session()
    course = session.get(Course, exercise.course_id)
    latest = read_latest_runs(session, exercise)  # once, for every figure
    heats = class_results.heat_maps(session, exercise, latest)
    # The trees as the current version's analysis kept them (never expanded here).
    result = None
    if exercise.current_version is not None:
        result = analyses.result_for(session, exercise.current_version)[1]
    trees = {} if result is None else result.drawings()
    drawings = {
        heat.name: draw(trees[heat.name], _heat_marks(heat), caption=f"tree {heat.name}")
        for heat in heats
        if heat.name in trees
    }
    histogram = class_results.score_histogram(session, exercise, latest=latest)
    return render_template(
        "instructor/class_results.html",
        exercise=exercise,
        course=course,
        students=class_results.students_graded(session, exercise, latest),
        heats=heats,
        drawings=drawings,
        verdicts=class_results.verdict_distribution(session, exercise, latest),
        histogram=histogram,
        tallest=max([bucket.count for bucket in histogram] + [1]),
        divergences=class_results.common_divergences(session, exercise, latest=latest),
        misconceptions=misconceptions.class_misconceptions(
            session, exercise, settings().exercises_dir, latest
        ),
        form=ActionForm(),
        open_regrade=regrades.open_regrade(session, exercise.id),
    )


@blueprint.route("/exercises/<int:exercise_id>/analytics")
def class_results_old_address(exercise_id: int) -> Response:
    """The class results page's address before it was called so: moved for good, for the
    instructors' bookmarks (the page itself checks who may see it)."""
    return redirect(url_for(".class_results_page", exercise_id=exercise_id), code=301)


def _heat_marks(heat: class_results.TreeHeat) -> dict[str, NodeMark]:
    """Each node coloured by the share of students with a mistake there (0 to 5)."""
    marks = {}
    for name, node in heat.nodes.items():
        level = 0 if node.wrong == 0 else min(5, 1 + int(node.share * 5))
        marks[name] = NodeMark(f"heat-{level}", node.breakdown())
    return marks


@blueprint.route("/exercises/<int:exercise_id>/grades.csv")
@role_required(Role.INSTRUCTOR)
def grades_csv(exercise_id: int) -> Response:
    exercise = taught_exercise(exercise_id)
    session = db_session()
    # Each student's latest misconception, by the name students read.
    latest = misconceptions.latest_names(session, exercise)
    names = misconceptions.describe(
        session, exercise, set(latest.values()), settings().exercises_dir
    )
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([*gradebook.COLUMNS, "misconception"])
    for row in gradebook.grade_book(session, exercise):
        misconception = latest.get(row.user_id)
        writer.writerow(
            [
                _cell(row.name),
                _cell(row.email),
                _cell(row.identity),
                str(row.attempts),
                _cell(row.verdict or ""),
                _number(row.latest_score),
                _number(row.best_score),
                _number(row.grade),
                _number(row.max_score),
                "yes" if row.late else "no",
                str(row.days_late),
                _number(row.penalty),
                "yes" if row.overridden else "no",
                _cell(row.override_comment),
                _utc(row.extension_due),
                _utc(row.last_submitted),
                "" if misconception is None else _cell(names[misconception].name),
            ]
        )
    filename = f"{exercise.slug}-grades.csv"
    return Response(
        buffer.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def _cell(text: str) -> str:
    """``text`` made safe for spreadsheets: a leading ' keeps a formula as text."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def _utc(moment: datetime | None) -> str:
    return "" if moment is None else aware(moment).isoformat(timespec="seconds")
