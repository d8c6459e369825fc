"""Known mistakes on the instructors' pages: the exercise's library of wrong
implementations (the shipped ones and those its instructors add), adding one, and what its
check found.

An added implementation is the course's code: these pages only compile it, to name a
syntax error's line at once; a worker runs it in the sandbox on the exercise's trees
(:mod:`grader.services.added_implementations`), and its page polls until that is done.
Only the course's instructors and admins open them; anyone else finds nothing (404).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from markupsafe import Markup
from werkzeug.wrappers import Response
from wtforms import StringField, TextAreaField

from grader.models import AddedImplementation, AddedState, Course, Exercise, ExerciseVersion
from grader.services import added_implementations as library
from grader.services.exercise_store import outline_version
from grader.web.context import db_session, queue, settings, taught_exercise
from grader.web.treesvg import stored_tree_svg
from reference.hidden.library import Implementation
from reference.problems import FileProblems
from reference.stored_tree import from_json

blueprint = Blueprint("added_implementations", __name__, url_prefix="/teach")

REFRESH_SECONDS = 3
"""How often an implementation's page reloads without JavaScript while it is checked."""


class AddForm(FlaskForm):
    stem = StringField("Name in the library (a slug, such as max_never_raises_alpha)")
    name = StringField("Misconception (a short name students read)")
    explanation = TextAreaField("Explanation (one paragraph for students, in the textbook's terms)")
    pseudocode = StringField("Textbook line (the pseudocode it concerns, naming the figure)")
    hint = TextAreaField("Hint (where to look, without the code)")
    source = TextAreaField("Code")
    upload = FileField("Or its .py file (a header as in the shipped library fills empty fields)")


class ActionForm(FlaskForm):
    """A button that changes something (activate, delete, check again): the CSRF token."""


def _implementation(exercise: Exercise, added_id: int) -> AddedImplementation:
    found = library.find(db_session(), exercise, added_id)
    if found is None:
        abort(404)
    return found


def _page_of(exercise: Exercise, row: AddedImplementation) -> str:
    return url_for(".implementation", exercise_id=exercise.id, added_id=row.id)


# The exercise page's section.


@dataclass(frozen=True, slots=True)
class Listed:
    """An added implementation as the exercise page lists it."""

    row: AddedImplementation
    counts: library.Counts
    stale: bool


def panel(exercise: Exercise) -> dict[str, Any]:
    """What the exercise page's "Known mistakes" section shows: the shipped wrong
    implementations of its algorithm and the added ones, with their checks' counts."""
    session = db_session()
    shipped: list[Implementation] = []
    algorithm = None
    version = exercise.current_version
    if version is not None:
        try:
            rules = outline_version(settings(), exercise.slug, version).rules
        except FileProblems:
            rules = None  # the preview says what is wrong with the version
        if rules is not None:
            algorithm = rules.algorithm
            shipped = library.shipped(settings().exercises_dir, rules)
    rows = library.implementations(session, exercise)
    counts = library.counts(session, [row.id for row in rows])
    return {
        "algorithm": algorithm,
        "shipped": shipped,
        "added": [
            Listed(row, counts.get(row.id, library.Counts()), library.stale(row, exercise))
            for row in rows
        ],
        "action_form": ActionForm(),
    }


# Adding one.


@blueprint.route("/exercises/<int:exercise_id>/library/new", methods=["GET", "POST"])
@login_required
def add(exercise_id: int) -> str | Response | tuple[str, int]:
    exercise = taught_exercise(exercise_id)
    form = AddForm()
    if not form.validate_on_submit():
        if request.method == "POST":
            abort(400)  # only a missing or stale CSRF token fails here
        return _add_page(exercise, form)
    draft = library.Draft(
        stem=form.stem.data or "",
        name=form.name.data or "",
        explanation=form.explanation.data or "",
        pseudocode=form.pseudocode.data or "",
        hint=form.hint.data or "",
        source=form.source.data or "",
    )
    limit = settings().upload_limit_bytes
    upload = request.files.get(form.upload.name)
    filename = ""
    if upload is not None and upload.filename:
        try:
            text = library.read_upload(upload.read(), limit)
        except library.SubmissionRefused as refused:
            form.upload.errors = [f"The file cannot be read: {refused.message}."]
            return _add_page(exercise, form, 422)
        draft = library.Draft(**{**_fields(draft), "source": text})
        filename = upload.filename
    # A header as the shipped library's fills what the form leaves empty.
    draft = library.filled_from_header(draft, draft.source, filename)
    result = library.add(db_session(), exercise, current_user, draft, limit=limit, sender=queue())
    if isinstance(result, dict):
        _show(form, draft)
        for name, message in result.items():
            getattr(form, name).errors = [message]
        return _add_page(exercise, form, 422)
    flash(
        f"Added {result.stem} to the library of {exercise.slug}: a worker now runs it on "
        "the exercise's trees.",
        "info",
    )
    return redirect(_page_of(exercise, result))


def _fields(draft: library.Draft) -> dict[str, str]:
    return {
        "stem": draft.stem,
        "name": draft.name,
        "explanation": draft.explanation,
        "pseudocode": draft.pseudocode,
        "hint": draft.hint,
        "source": draft.source,
    }


def _show(form: AddForm, draft: library.Draft) -> None:
    """Fill the form again with what the draft holds (an upload's header and code too)."""
    for name, value in _fields(draft).items():
        getattr(form, name).data = value


def _add_page(exercise: Exercise, form: AddForm, status: int = 200) -> tuple[str, int]:
    course = db_session().get(Course, exercise.course_id)
    page = render_template(
        "instructor/added_new.html",
        exercise=exercise,
        course=course,
        form=form,
        limit=settings().upload_limit_bytes,
        has_errors=any(field.errors for field in form),
    )
    return page, status


# One implementation.


@blueprint.route("/exercises/<int:exercise_id>/library/<int:added_id>")
@login_required
def implementation(exercise_id: int, added_id: int) -> str:
    exercise = taught_exercise(exercise_id)
    row = _implementation(exercise, added_id)
    session = db_session()
    result = library.result_of(session, row) if row.state == AddedState.READY else None
    trees = (result or {}).get("trees", [])
    drawings: dict[str, Markup] = {}
    for tree in trees:
        if tree.get("drawing") is not None:
            caption = f"{tree['name']} ({tree['nodes']} nodes)"
            drawings[tree["name"]] = stored_tree_svg(from_json(tree["drawing"]), caption=caption)
    checking = row.state == AddedState.CHECKING
    checked_against = (
        None if row.version_id is None else session.get(ExerciseVersion, row.version_id)
    )
    return render_template(
        "instructor/added.html",
        exercise=exercise,
        course=session.get(Course, exercise.course_id),
        row=row,
        counts=library.Counts.of(result),
        trees=trees,
        drawings=drawings,
        checking=checking,
        stuck=library.stuck(row),
        stale=library.stale(row, exercise),
        checked_against=checked_against,
        refresh=REFRESH_SECONDS if checking else None,
        status_url=url_for(".status", exercise_id=exercise.id, added_id=row.id),
        form=ActionForm(),
    )


@blueprint.route("/exercises/<int:exercise_id>/library/<int:added_id>/status")
@login_required
def status(exercise_id: int, added_id: int) -> Response:
    """The check's state, as JSON (the implementation's page polls it)."""
    row = _implementation(taught_exercise(exercise_id), added_id)
    response = jsonify({"state": row.state, "done": row.state != AddedState.CHECKING})
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.route("/exercises/<int:exercise_id>/library/<int:added_id>/active", methods=["POST"])
@login_required
def set_active(exercise_id: int, added_id: int) -> Response:
    exercise = taught_exercise(exercise_id)
    row = _implementation(exercise, added_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    active = request.form.get("active") == "1"
    if library.set_active(db_session(), exercise, current_user, row, active):
        words = "is used in diagnoses again" if active else "is left out of diagnoses"
        flash(f"{row.stem} {words}.", "info")
    return redirect(_back(exercise, row))


@blueprint.route("/exercises/<int:exercise_id>/library/<int:added_id>/delete", methods=["POST"])
@login_required
def delete(exercise_id: int, added_id: int) -> Response:
    exercise = taught_exercise(exercise_id)
    row = _implementation(exercise, added_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    stem = row.stem
    library.delete(db_session(), exercise, current_user, row)
    flash(f"Deleted {stem} from the library of {exercise.slug}.", "info")
    return redirect(url_for("instructor.exercise_page", exercise_id=exercise.id) + "#mistakes")


@blueprint.route("/exercises/<int:exercise_id>/library/<int:added_id>/check", methods=["POST"])
@login_required
def check_again(exercise_id: int, added_id: int) -> Response:
    exercise = taught_exercise(exercise_id)
    row = _implementation(exercise, added_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    if library.check_again(db_session(), exercise, current_user, row, queue()):
        flash(f"{row.stem} is checked again, against the exercise's current version.", "info")
    else:
        flash(f"{row.stem} is being checked already.", "info")
    return redirect(_page_of(exercise, row))


def _back(exercise: Exercise, row: AddedImplementation) -> str:
    """Where a button's change returns: the page it was pressed on."""
    if request.form.get("back") == "exercise":
        return url_for("instructor.exercise_page", exercise_id=exercise.id) + "#mistakes"
    return _page_of(exercise, row)
